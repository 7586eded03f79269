import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";

export const MetricsTokenView = z
  .object({
    id: z.string().openapi({ example: "mtk_01J...", description: "The token's id (not the secret)" }),
    createdAt: Timestamp,
    createdBy: z.string().nullable().openapi({ description: "The platform admin who issued it; null once that account is deleted" }),
  })
  .openapi("MetricsToken");

export const IssuedMetricsToken = z
  .object({
    id: z.string(),
    createdAt: Timestamp,
    token: z.string().openapi({
      example: "mtk_3q2x...",
      description: "The bearer for GET /metrics, shown once (only its hash is stored). Any previous token is revoked.",
    }),
  })
  .openapi("IssuedMetricsToken");

export const MetricsText = z.string().openapi({
  description: "Prometheus text exposition format 0.0.4",
  example: '# HELP wgo_network_nodes Nodes in the network.\n# TYPE wgo_network_nodes gauge\nwgo_network_nodes{network_id="net_01J..."} 3\n',
});
