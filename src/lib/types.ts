import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import type { Env } from "./env";

export type PlatformRole = "admin" | "user";

export interface UserAuth {
  kind: "user";
  userId: string;
  sessionId: string;
  platformRole: PlatformRole;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Db;
    auth: UserAuth;
  };
}

export type AppOpenAPI = OpenAPIHono<AppEnv>;
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
