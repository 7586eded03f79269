import { PROMETHEUS_CONTENT_TYPE } from "../../lib/prometheus-text";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import { currentMetricsToken, issueMetricsToken, revokeMetricsToken } from "../../services/metrics/metrics-token";
import { scrapeMetrics } from "../../services/metrics/scrape";
import { notFound } from "../../lib/errors";
import type * as routes from "./metrics.routes";
import type * as tokenRoutes from "./token.routes";

export const scrape: AppRouteHandler<typeof routes.scrape> = async (c) => {
  // Values are of this moment: a cache between Prometheus and the Worker would serve stale ones.
  return c.text(await scrapeMetrics(c.env), 200, { "Content-Type": PROMETHEUS_CONTENT_TYPE, "Cache-Control": "no-store" });
};

export const issue: AppRouteHandler<typeof tokenRoutes.issue> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(await issueMetricsToken(c.var.db, userOf(c).userId, auditOf(c, 201)), 201);
};

export const show: AppRouteHandler<typeof tokenRoutes.show> = async (c) => {
  requirePlatformAdmin(userOf(c));
  const current = await currentMetricsToken(c.var.db);
  if (!current) throw notFound("Metrics token");
  return c.json(current, 200);
};

export const revoke: AppRouteHandler<typeof tokenRoutes.revoke> = async (c) => {
  requirePlatformAdmin(userOf(c));
  await revokeMetricsToken(c.var.db, auditOf(c, 204));
  return c.body(null, 204);
};
