import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { API_BASE } from "../lib/api-base";
import type { AppEnv } from "../lib/types";
import { type Mutation, recordMutation, scopeOf } from "../services/audit/record";
import { responseIds } from "../services/audit/response-ids";
import { resolveScope, type Scope } from "../services/audit/scope";
import { inBackground } from "../lib/background";
import type { AuditContext } from "../services/audit/audit-trail";

const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** OAuth finishes a sign-in (a new session) on the provider's redirect, which is a GET. */
const SIGN_IN_BY_GET = new Set([`${API_BASE}/auth/oauth/:provider/callback`]);

/**
 * POST routes that change nothing anyone administers: a read over POST (device config) and liveness
 * telemetry (device heartbeats, agent reports) that arrives every minute per device and would bury the
 * log. Their effect stays visible in lastSeenAt, runtime status and the presence notifications.
 */
const NOT_AUDITED = new Set([`${API_BASE}/client/devices/:id/config`, `${API_BASE}/client/devices/:id/heartbeat`, `${API_BASE}/agents/me/report`]);

/** The handler's route (middleware registers as method ALL), e.g. /api/v1/routing-policies/:id. */
const routeOf = (c: Context<AppEnv>) => matchedRoutes(c).filter((route) => route.method !== "ALL").at(-1)?.path;

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

function actorOf(c: Context<AppEnv>): Mutation["actor"] {
  // Exactly one of these is set, by the route's own authentication (user, device or agent).
  if (c.var.auth?.userId) return { type: "user", id: c.var.auth.userId };
  if (c.var.device) return { type: "device", id: c.var.device.deviceId };
  if (c.var.agent?.agentId) return { type: "agent", id: c.var.agent.agentId };
  return { type: "anonymous", id: null };
}

async function jsonOf(response: Response | undefined): Promise<unknown> {
  try {
    return response ? await response.json() : null;
  } catch {
    return null;
  }
}

/**
 * The request a handler's write serves, for the write to commit its audit row with the change
 * (docs/audit.md). Handing it out marks the request as audited there, so the trail below skips it.
 */
export function auditOf(c: Context<AppEnv>, status: number): AuditContext {
  c.set("auditedInWrite", true);
  const pattern = routeOf(c) ?? c.req.path;
  return {
    actor: actorOf(c), requestId: c.var.requestId, method: c.req.method, status,
    route: pattern.startsWith(API_BASE) ? pattern.slice(API_BASE.length) : pattern, params: paramsOf(pattern, c.req.path),
  };
}

/**
 * Records the successful mutations whose services do not yet commit their own audit row (auditOf),
 * after the handler ran, so route-level auth has set the actor. Deletions resolve their group and
 * network first (nothing is left to look up afterwards). The write runs in waitUntil.
 */
export const auditTrail = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const route = routeOf(c);
  const pattern = route && (MUTATIONS.has(c.req.method) || SIGN_IN_BY_GET.has(route)) ? route : undefined;
  if (!pattern || NOT_AUDITED.has(pattern)) return next();
  const params = paramsOf(pattern, c.req.path);
  // Route auth has not run yet: only a request that carries credentials may cost this read (every DELETE
  // route needs them), so anonymous DELETE floods do not turn into D1 load.
  const before: Scope | undefined = c.req.method === "DELETE" && c.req.header("authorization")
    ? await resolveScope(c.var.db, Object.values(params).reverse()).catch(() => undefined)
    : undefined;
  await next();
  const status = c.res.status;
  if (status < 200 || status > 299 || c.var.auditedInWrite) return;
  const at = new Date().toISOString();
  const json = c.res.headers.get("content-type")?.includes("application/json") ? c.res.clone() : undefined;
  const db = c.var.db;
  inBackground(c, "audit", async () => {
    const body = await jsonOf(json);
    const mutation: Mutation = {
      at, method: c.req.method, route: pattern.startsWith(API_BASE) ? pattern.slice(API_BASE.length) : pattern,
      params, status, requestId: c.var.requestId, actor: actorOf(c), ids: responseIds(body), before,
    };
    await recordMutation(db, mutation, await scopeOf(db, mutation));
  });
};
