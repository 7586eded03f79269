import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { NodeConfigSchema } from "../../schemas/node-config";
import { NodeSchema } from "../../schemas/nodes";
import { CreateNodeBody, NodeListQuery, UpdateNodeBody } from "./nodes.schemas";

const tags = ["Nodes"];
const params = IdParam("Node", "node");
const WG_QUICK_EXAMPLE = [
  "# wg-overlay: network net_..., node node_..., routing revision 7",
  "[Interface]",
  "PrivateKey = REPLACE_WITH_PRIVATE_KEY",
  "Address = 10.0.0.11/24",
  "",
  "[Peer]",
  "# gw-1 (node_...)",
  "PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
  "Endpoint = gw1.example.net:51820",
  "AllowedIPs = 10.0.0.1/32",
  "",
].join("\n");

export const create = createRoute({
  method: "post",
  path: "/nodes",
  operationId: "createNode",
  tags,
  summary: "Add a node to a network (owner, admin); the server allocates its address",
  description:
    "Owners and admins of the network's group. The server allocates a free address of the network's CIDR unless one is given. A node with roles [\"gateway\"] must name gatewayId, a gateway of the shared inventory (GET /gateways; platform admins add them); it may omit publicKey: the gateway daemon generates the key on the gateway and registers it (PUT /agents/me/nodes/{nodeId}), and until then no config lists it as a peer. Only a gateway node may serve DNS (servesDns). To be a hop of a routing policy, its inventory gateway must also be eligible under the platform settings (status and region). 409 for a name or public key already used in the network, or a full address range.",
  request: { body: jsonBody(CreateNodeBody) },
  responses: { 201: jsonResponse(NodeSchema, "Created"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/nodes",
  operationId: "listNodes",
  tags,
  summary: "Nodes the caller can see, optionally of one network",
  description:
    "Any signed-in user: nodes of the networks they can see (any role), optionally of one network. Another member's device node is listed redacted (redacted: true; routing and lastSeenAt null): its detail is for its owner, the group's owners and admins, and platform admins.",
  request: { query: PageQuery.extend(NodeListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(NodeSchema, "NodePage"), "A page of nodes"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/nodes/{id}",
  operationId: "getNode",
  tags,
  summary: "One node",
  description:
    "Members of the network's group (viewer and up); others get 404. Another member's device node answers the redacted entry the list shows (redacted: true).",
  request: { params },
  responses: { 200: jsonResponse(NodeSchema, "The node"), ...errorResponses(401, 404, 422) },
});

export const update = createRoute({
  method: "patch",
  path: "/nodes/{id}",
  operationId: "updateNode",
  tags,
  summary: "Change a node (owner, admin); a gateway hop keeps its role while a policy names it",
  description:
    'Owners and admins of the network\'s group. Only the fields sent change, under the same rules as creation (A node with roles ["gateway"] must name gatewayId, a gateway of the shared inventory (GET /gateways; platform admins add them); it may omit publicKey: the gateway daemon generates the key on the gateway and registers it (PUT /agents/me/nodes/{nodeId}), and until then no config lists it as a peer. Only a gateway node may serve DNS (servesDns). To be a hop of a routing policy, its inventory gateway must also be eligible under the platform settings (status and region).) A node that is a hop of a routing policy keeps the gateway role (409).',
  request: { params, body: jsonBody(UpdateNodeBody) },
  responses: { 200: jsonResponse(NodeSchema, "Updated"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/nodes/{id}",
  operationId: "deleteNode",
  tags,
  summary: "Remove a node and free its address (owner, admin); 409 while a policy uses it as a hop",
  description:
    "Owners and admins of the network's group. Its address is freed and it leaves every peer's config. 409 while a routing policy names it as a hop, or while it is a gateway pool member.",
  request: { params },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});

export const config = createRoute({
  method: "get",
  path: "/nodes/{id}/config",
  tags,
  operationId: "getNodeConfig",
  summary: "Generated WireGuard configuration with routingIntent[]",
  description:
    "Members of the network's group (viewer and up); another member's device node answers 404 (its config is for its owner, the group's owners and admins, and platform admins). JSON by default (the wg-quick text, the peers and routingIntent[]); " +
    "send `Accept: text/plain` (without application/json) for only the wg-quick text, ready for `wg-quick up`. " +
    "The PrivateKey line is a placeholder (REPLACE_WITH_PRIVATE_KEY): the server never holds private keys.",
  request: { params },
  responses: {
    200: {
      description: "The node's configuration: JSON, or the wg-quick file when the request's Accept header asks for text/plain",
      content: {
        "application/json": { schema: NodeConfigSchema },
        "text/plain": { schema: z.string().openapi({ description: "A wg-quick configuration file", example: WG_QUICK_EXAMPLE }) },
      },
    },
    ...errorResponses(401, 404, 422),
  },
});
