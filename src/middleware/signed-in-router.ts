import type { RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { createRouter } from "../lib/create-router";
import { SECURITY } from "../lib/openapi";
import type { AppEnv } from "../lib/types";
import { requireUser } from "./auth";

/**
 * A router every route of which needs a signed-in user: authentication and its OpenAPI security entry
 * are applied here, once, as each route is registered, instead of in every route definition. (A path-less
 * `use("*")` cannot do it: mounted at "/", it would guard the whole API, public routes included.)
 */
export function signedInRouter() {
  const router = createRouter();
  const register = router.openapi.bind(router);
  const guarded = (route: RouteConfig) => ({
    ...route,
    middleware: [requireUser, ...[route.middleware ?? []].flat()] as MiddlewareHandler<AppEnv>[],
    security: route.security ?? SECURITY.user,
  });
  router.openapi = ((route: RouteConfig, ...rest: unknown[]) =>
    (register as (...args: unknown[]) => unknown)(guarded(route), ...rest)) as typeof router.openapi;
  return router;
}
