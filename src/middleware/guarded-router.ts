import type { RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { createRouter } from "../lib/create-router";
import { SECURITY } from "../lib/openapi";
import type { AppEnv } from "../lib/types";
import { agentOfKind, requireAgent } from "./agent-auth";
import { optionalUser, requireUser, requireUserForWriter } from "./auth";
import { requireDeviceOrUser } from "./device-auth";
import { requireMetricsReader } from "./metrics-auth";
import { requireScimToken } from "./scim-auth";

/**
 * Who may call a router's routes: the middleware that sets the request's principal (one per scheme) and
 * the OpenAPI security entry that states it, kept together so the document cannot say one thing while
 * the code does another.
 */
const GUARDS = {
  /** No credentials: login, refresh, health, agent enrolment (the body carries the proof). */
  public: { middleware: [], security: SECURITY.none },
  user: { middleware: [requireUser], security: SECURITY.user },
  /** A user whose writes the network's writer authorises, session included (middleware/auth.ts requireUserForWriter). */
  userWrites: { middleware: [requireUserForWriter], security: SECURITY.user },
  /** A user's token when one is sent; without one the body proves the right (enrolment key, invite token). */
  optionalUser: { middleware: [optionalUser], security: SECURITY.optionalUser },
  deviceOrUser: { middleware: [requireDeviceOrUser], security: SECURITY.deviceOrUser },
  agent: { middleware: [requireAgent], security: SECURITY.agent },
  manager: { middleware: [requireAgent, agentOfKind("gateway-manager")], security: SECURITY.agent },
  daemon: { middleware: [requireAgent, agentOfKind("gateway-daemon")], security: SECURITY.agent },
  metricsReader: { middleware: [requireMetricsReader], security: SECURITY.metricsReader },
  scim: { middleware: [requireScimToken], security: SECURITY.scim },
} satisfies Record<string, { middleware: MiddlewareHandler<AppEnv>[]; security: unknown }>;

export type GuardName = keyof typeof GUARDS;

/**
 * The one way a route is registered: on a router for one kind of caller, which puts that guard's
 * middleware first and its security entry in the document for every route, as each is registered. (A
 * path-less `use("*")` cannot do it: mounted at "/", it would guard the whole API, public routes included.)
 * A route that states its own security is refused at startup: the router's guard is the only source.
 */
export function guardedRouter(name: GuardName) {
  const guard = GUARDS[name];
  const router = createRouter();
  const register = router.openapi.bind(router);
  const guarded = (route: RouteConfig): RouteConfig => {
    if (route.security) throw new Error(`${route.method.toUpperCase()} ${route.path}: security comes from its router's guard`);
    return { ...route, middleware: [...guard.middleware, ...[route.middleware ?? []].flat()], security: guard.security };
  };
  router.openapi = ((route: RouteConfig, ...rest: unknown[]) =>
    (register as (...args: unknown[]) => unknown)(guarded(route), ...rest)) as typeof router.openapi;
  return router;
}
