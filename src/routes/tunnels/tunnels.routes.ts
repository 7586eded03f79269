import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonResponse, Timestamp } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";

export const TunnelSchema = z
  .object({
    id: z.string().openapi({ example: "tun_..." }),
    networkId: z.string(),
    fromNodeId: z.string().openapi({ description: "The node that reported this end" }),
    toNodeId: z.string().nullable().openapi({ description: "The peer's node (null if no node of the network has that key any more)" }),
    peerPublicKey: z.string(),
    lastHandshakeAt: Timestamp.nullable(),
    rxBytes: z.number().int(),
    txBytes: z.number().int(),
    state: z.enum(["up", "stale", "down"]).openapi({ description: "up: handshake ≤ 180 s old; stale: ≤ 600 s; down: older or never" }),
    reportedAt: Timestamp,
  })
  .openapi("Tunnel");

export const list = createRoute({
  method: "get",
  path: "/tunnels",
  operationId: "listTunnels",
  tags: ["Tunnels"],
  summary: "Observed tunnels (from heartbeats) in the networks the caller can see",
  description:
    "Any signed-in user: tunnels of the networks they can see (any role), as the nodes last reported them in heartbeats. Filter by network or node. A tunnel that another member's device reports, or that leads to one, is shown only to that device's owner, the group's owners and admins, and platform admins.",
  request: {
    query: PageQuery.extend({
      networkId: z.string().max(64).optional(),
      nodeId: z.string().max(64).optional().openapi({ description: "Tunnels reported by, or leading to, this node" }),
    }),
  },
  responses: { 200: jsonResponse(pageOf(TunnelSchema, "TunnelPage"), "A page of tunnels"), ...errorResponses(401, 422) },
});
