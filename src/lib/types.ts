import type { OpenAPIHono, RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import type { devices, networks, nodes } from "../db/schema";
import type { Env } from "./env";

export type PlatformRole = "admin" | "user";

/** A user acting with an access token (JWT) of a live session. */
export interface UserPrincipal {
  kind: "user";
  userId: string;
  sessionId: string;
  platformRole: PlatformRole;
}

/**
 * What a device's credential names, read with it in one statement (middleware/device-auth.ts): the
 * device, its node and network, and whether its owner still holds devices there (null owner: headless).
 */
export interface DeviceStanding {
  device: typeof devices.$inferSelect;
  node: typeof nodes.$inferSelect;
  network: typeof networks.$inferSelect;
  ownerHolds: boolean;
}

/** A managed-client device acting for itself with its credential (`dvc_…`). */
export interface DevicePrincipal {
  kind: "device";
  deviceId: string;
  standing: DeviceStanding;
}

/** A gateway agent acting with its credential (`agc_…`). */
export interface AgentPrincipal {
  kind: "agent";
  agentId: string;
  agentKind: "gateway-manager" | "gateway-daemon";
  regionId: string | null;
  gatewayId: string | null;
}

/** Prometheus with the metrics token (`mtk_…`): it reads GET /metrics and nothing else. */
export interface MetricsPrincipal {
  kind: "metrics";
}

/** An identity provider's SCIM client with a SCIM token (`scim_…`): the SCIM routes and nothing else. */
export interface ScimPrincipal {
  kind: "scim";
  tokenId: string;
  /** The token's name: SCIM changes are audited as `scim:<name>`. */
  tokenName: string;
}

/** Who the request acts for: set by the one middleware of the route's scheme, absent on public routes. */
export type Principal = UserPrincipal | DevicePrincipal | AgentPrincipal | MetricsPrincipal | ScimPrincipal;

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Db;
    principal?: Principal;
  };
}

export type AppOpenAPI = OpenAPIHono<AppEnv>;
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
