import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonResponse, Timestamp } from "../../lib/openapi";

const PeerPath = z
  .object({
    peerNodeId: z.string(),
    peerName: z.string(),
    path: z.enum(["direct", "relay", "unknown"]).openapi({
      description:
        "relay: the server moved the pair onto a relay (via) because they found no direct path; direct: this node reported a handshake with the peer in the last 180 s; unknown: neither (no traffic yet, or no report)",
    }),
    via: z
      .object({ nodeId: z.string(), name: z.string() })
      .nullable()
      .openapi({ description: "The relay carrying the pair; null unless relayed" }),
    endpoint: z
      .string()
      .nullable()
      .openapi({ description: "Where this node's WireGuard last heard the peer from, else the endpoint its config names" }),
    lastHandshakeAt: Timestamp.nullable(),
  })
  .openapi("PeerPath");

const Candidate = z
  .object({
    endpoint: z.string(),
    source: z.enum(["configured", "observed", "local", "public"]).openapi({
      description:
        "configured: the node's own endpoint field; observed: its address after NAT as a gateway saw it; local: on its LAN, from its heartbeats; public: the address its heartbeats came from, with its port (a hint)",
    }),
    seenAt: Timestamp.nullable(),
  })
  .openapi("EndpointCandidate");

export const NodePathsSchema = z
  .object({
    nodeId: z.string(),
    candidates: z.array(Candidate).openapi({ description: "Where other nodes are told to find this one (docs/nat.md)" }),
    items: z.array(PeerPath).openapi({ description: "One entry per peer in the node's config, in its order" }),
  })
  .openapi("NodePaths");

export const paths = createRoute({
  method: "get",
  path: "/nodes/{id}/paths",
  tags: ["Nodes"],
  operationId: "getNodePaths",
  summary: "How the node reaches each peer: direct, through a relay, or unknown (paths across NAT)",
  description:
    "Who may read the node's config (members of the group; another member's device node is 404), or the node's own device with its credential (`wgo status`). docs/nat.md explains how paths are found.",
  request: { params: IdParam("Node", "node") },
  responses: { 200: jsonResponse(NodePathsSchema, "The node's paths"), ...errorResponses(401, 404, 422) },
});
