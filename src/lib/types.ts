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

/** A managed-client device acting for itself with its credential (`dvc_…`). */
export interface DeviceAuth {
  kind: "device";
  deviceId: string;
}

/** A gateway agent acting with its credential (`agc_…`). */
export interface AgentAuth {
  kind: "agent";
  agentId: string;
  agentKind: "gateway-manager" | "gateway-daemon";
  regionId: string | null;
  gatewayId: string | null;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Db;
    auth: UserAuth;
    /** Set instead of `auth` when a device credential authenticated the request. */
    device?: DeviceAuth;
    /** Set (and nothing else) on agent routes. */
    agent: AgentAuth;
  };
}

export type AppOpenAPI = OpenAPIHono<AppEnv>;
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
