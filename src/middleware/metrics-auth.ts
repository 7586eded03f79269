import type { MiddlewareHandler } from "hono";
import { unauthorized } from "../lib/errors";
import { userOf } from "../lib/principal";
import type { AppEnv } from "../lib/types";
import { isLiveMetricsToken, METRICS_TOKEN_PREFIX } from "../services/metrics/metrics-token";
import { bearerToken, requirePlatformAdmin, requireUser } from "./auth";

/**
 * GET /metrics: the metrics token (`mtk_…`, so Prometheus needs no user account), or a platform admin's
 * access token. A token with the prefix is judged as a metrics token only: a wrong or revoked one is 401,
 * never retried as a user token. A signed-in user who is not a platform admin is 403.
 */
export const requireMetricsReader: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  if (token?.startsWith(METRICS_TOKEN_PREFIX)) {
    if (!(await isLiveMetricsToken(c.var.db, token))) throw unauthorized("The metrics token is not valid (unknown or revoked)");
    c.set("principal", { kind: "metrics" });
    return next();
  }
  return requireUser(c, async () => {
    requirePlatformAdmin(userOf(c));
    await next();
  });
};
