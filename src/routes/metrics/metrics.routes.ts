import { createRoute } from "@hono/zod-openapi";
import { errorResponses } from "../../lib/openapi";
import { PROMETHEUS_CONTENT_TYPE } from "../../lib/prometheus-text";
import { MetricsText } from "./metrics.schemas";

export const scrape = createRoute({
  method: "get",
  path: "/metrics",
  operationId: "getMetrics",
  tags: ["Metrics"],
  summary: "Prometheus metrics of the fleet (platform admins or the metrics token)",
  description:
    "Nodes and devices per network, nodes behind their desired routing revision, heartbeat and tunnel handshake ages " +
    "(histograms per network), gateway and pool health, writer queue depth, notification deliveries by state and " +
    "login failures, in the Prometheus text format 0.0.4. Every series is described in docs/metrics.md. Scrape it " +
    "with the metrics token (`POST /admin/metrics-token`) as the bearer, or a platform admin's access token.",
  responses: {
    200: {
      description: `The current values (Content-Type: ${PROMETHEUS_CONTENT_TYPE})`,
      content: { "text/plain": { schema: MetricsText } },
    },
    ...errorResponses(401, 403),
  },
});
