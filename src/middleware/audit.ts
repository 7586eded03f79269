import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { API_BASE } from "../lib/api-base";
import type { AppEnv } from "../lib/types";
import type { Actor, AuditContext } from "../services/audit/audit-trail";

/** The handler's route (middleware registers as method ALL), e.g. /api/v1/routing-policies/:id. */
const routeOf = (c: Context<AppEnv>) =>
  matchedRoutes(c)
    .filter((route) => route.method !== "ALL")
    .at(-1)?.path;

/** A malformed escape (`%zz`, `%FF`) stays as sent: the route answers 404/422 for it, never a 500 here. */
const decodeParam = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** Path parameters by lining the pattern up with the path; works before the handler has run. */
function paramsOf(pattern: string, path: string): Record<string, string> {
  const names = pattern.split("/");
  const values = path.split("/");
  const params: Record<string, string> = {};
  names.forEach((name, index) => {
    const value = values[index];
    if (name.startsWith(":") && value !== undefined) params[name.slice(1).replace(/[{?].*$/, "")] = decodeParam(value);
  });
  return params;
}

function actorOf(c: Context<AppEnv>): Actor {
  const principal = c.var.principal;
  switch (principal?.kind) {
    case "user":
      return { type: "user", id: principal.userId };
    case "device":
      return { type: "device", id: principal.deviceId };
    case "agent":
      return { type: "agent", id: principal.agentId };
    case "scim":
      return { type: "scim", id: `scim:${principal.tokenName}` };
    default:
      // Public routes, and the metrics reader (which writes nothing).
      return { type: "anonymous", id: null };
  }
}

/**
 * The request a handler's write serves, for the write to commit its audit row in the same batch as the
 * change (docs/audit.md). Reads, failures and the liveness routes (device config and heartbeat, agent
 * reports) never ask for one, so they leave no row.
 */
export function auditOf(c: Context<AppEnv>, status: number): AuditContext {
  const pattern = routeOf(c) ?? c.req.path;
  const principal = c.var.principal;
  return {
    ...(principal?.kind === "user" ? { session: { id: principal.sessionId, platformRole: principal.platformRole } } : {}),
    actor: actorOf(c),
    requestId: c.var.requestId,
    method: c.req.method,
    status,
    route: pattern.startsWith(API_BASE) ? pattern.slice(API_BASE.length) : pattern,
    params: paramsOf(pattern, c.req.path),
  };
}
