import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { nodes } from "../../db/schema";
import { errorResponses, IdParam, jsonResponse } from "../../lib/openapi";
import { signedIn } from "../../middleware/auth";
import type { AppRouteHandler } from "../../lib/types";
import { networkAccess } from "../../services/access";
import { dnsStatus, routingStatus } from "../../services/networks/views/runtime-status";

const PlaneStatus = z.object({
  desiredRevision: z.number().int(),
  appliedRevision: z.number().int().nullable().openapi({ description: "Oldest revision any reporter runs; null while one has not reported" }),
  inSync: z.boolean(),
  lagging: z.array(z.string()).openapi({ description: "Reporters behind the desired revision (nodes for routing, gateway nodes for DNS)" }),
});

export const RuntimeStatusSchema = z.object({
  networkId: z.string(),
  routing: PlaneStatus.extend({ unreported: z.array(z.string()).openapi({ description: "Nodes that never reported" }) }),
  dns: PlaneStatus,
}).openapi("RuntimeStatus");

export const runtimeStatusRoute = createRoute({
  method: "get", path: "/networks/{id}/runtime-status", tags: ["Networks"], ...signedIn,
  summary: "Routing and DNS: desired revision versus what is applied",
  request: { params: IdParam("Network", "net") },
  responses: { 200: jsonResponse(RuntimeStatusSchema, "The status"), ...errorResponses(401, 404) },
});

export const runtimeStatus: AppRouteHandler<typeof runtimeStatusRoute> = async (c) => {
  const { network } = await networkAccess(c.var.db, c.var.auth, c.req.valid("param").id, "read");
  const reported = await c.var.db.select({
    id: nodes.id, isGateway: nodes.isGateway, appliedRoutingRevision: nodes.appliedRoutingRevision, appliedDnsRevision: nodes.appliedDnsRevision,
  }).from(nodes).where(eq(nodes.networkId, network.id)).all();
  return c.json({ networkId: network.id, routing: routingStatus(network, reported), dns: dnsStatus(network, reported) }, 200);
};
