import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { GatewayPoolSchema, PoolBody, PoolChangesBody, PoolListSchema, PoolMemberParams } from "./pools.schemas";

const tags = ["Gateway pools"];
const ruleErrors = errorResponses(400, 401, 403, 404, 409, 413, 415, 422);

export const create = createRoute({
  method: "post",
  path: "/networks/{id}/gateway-pools",
  operationId: "createGatewayPool",
  tags,
  summary: "Create a gateway pool (owner, admin)",
  description:
    "Owners and admins of the network's group. " +
    'A pool is one hop of a gateway path with failover: a routing policy names its id in gatewayPath, and traffic goes through the pool\'s active member. Members are gateway nodes of the network that pass every rule a hop must pass (400 validation_error naming the member, e.g. members.1 (node_x) …); a node belongs to at most one pool and a policy may not name a member directly (409). At most 8 members a pool and 100 pools a network (409). docs/routing.md, "Gateway pools and failover".',
  request: { params: IdParam("Network", "net"), body: jsonBody(PoolBody) },
  responses: { 201: jsonResponse(GatewayPoolSchema, "Created"), ...ruleErrors },
});

export const list = createRoute({
  method: "get",
  path: "/networks/{id}/gateway-pools",
  operationId: "listGatewayPools",
  tags,
  summary: "Gateway pools of a network",
  description:
    "Members of the network's group (viewer and up). " +
    "Every pool of the network (at most 100), oldest first, with each member's health now.",
  request: { params: IdParam("Network", "net") },
  responses: { 200: jsonResponse(PoolListSchema, "The pools"), ...errorResponses(401, 404, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/gateway-pools/{id}",
  operationId: "getGatewayPool",
  tags,
  summary: "One gateway pool",
  description:
    "Members of the network's group (viewer and up). " +
    "The pool, its active member, each member's health (reason, last report, probe failures in a row) and its last failover.",
  request: { params: IdParam("Gateway pool", "gpl") },
  responses: { 200: jsonResponse(GatewayPoolSchema, "The pool"), ...errorResponses(401, 404, 422) },
});

export const update = createRoute({
  method: "patch",
  path: "/gateway-pools/{id}",
  operationId: "updateGatewayPool",
  tags,
  summary: "Change a gateway pool (owner, admin)",
  description:
    "Owners and admins of the network's group. " +
    "Replaces what the body names: name, members (the whole list; members that stay keep their drain) or preempt. An active member that leaves hands over to the preferred member; with preempt on, a preferred healthy member takes over at once. Same rules as creation.",
  request: { params: IdParam("Gateway pool", "gpl"), body: jsonBody(PoolChangesBody) },
  responses: { 200: jsonResponse(GatewayPoolSchema, "Updated"), ...ruleErrors },
});

export const remove = createRoute({
  method: "delete",
  path: "/gateway-pools/{id}",
  operationId: "deleteGatewayPool",
  tags,
  summary: "Delete a gateway pool (owner, admin)",
  description: "Owners and admins of the network's group. " + "409 while a routing policy names the pool in its gatewayPath.",
  request: { params: IdParam("Gateway pool", "gpl") },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});

export const drain = createRoute({
  method: "post",
  path: "/gateway-pools/{id}/members/{nodeId}/drain",
  operationId: "drainGatewayPoolMember",
  tags,
  summary: "Drain a pool member (owner, admin)",
  description:
    "Owners and admins of the network's group. " +
    'A drained member is never chosen to carry traffic. Draining the active member fails over at once (reason "drained") when another member is healthy. 404 when the node is not a member.',
  request: { params: PoolMemberParams },
  responses: { 200: jsonResponse(GatewayPoolSchema, "The pool after the drain"), ...errorResponses(401, 403, 404, 422) },
});

export const undrain = createRoute({
  method: "post",
  path: "/gateway-pools/{id}/members/{nodeId}/undrain",
  operationId: "undrainGatewayPoolMember",
  tags,
  summary: "Return a drained member to its pool (owner, admin)",
  description:
    "Owners and admins of the network's group. " +
    "The member may be chosen again; it takes traffic back only when the active member fails, or at once with preempt on.",
  request: { params: PoolMemberParams },
  responses: { 200: jsonResponse(GatewayPoolSchema, "The pool after the undrain"), ...errorResponses(401, 403, 404, 422) },
});
