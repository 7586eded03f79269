import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { PolicyBody, PolicyStatusSchema, RoutingPolicySchema } from "./policies.schemas";

const tags = ["Routing policies"];
const ruleErrors = errorResponses(400, 401, 403, 404, 409, 413, 415, 422);

export const create = createRoute({
  method: "post",
  path: "/networks/{id}/routing-policies",
  operationId: "createRoutingPolicy",
  tags,
  summary: "Create a routing policy (owner, admin)",
  description:
    'Owners and admins of the network\'s group. Every hop of gatewayPath is a gateway node of this network (roles ["gateway"]) whose inventory gateway is eligible (platform settings: status and region), or a gateway pool of this network; at most ROUTING_POLICY_MAX_HOPS hops (pools count as one). ' +
    "400 validation_error names the offending hop; 409 when the policy cannot coexist with the network's others (docs/routing.md).",
  request: { params: IdParam("Network", "net"), body: jsonBody(PolicyBody) },
  responses: { 201: jsonResponse(RoutingPolicySchema, "Created"), ...ruleErrors },
});

export const list = createRoute({
  method: "get",
  path: "/networks/{id}/routing-policies",
  operationId: "listRoutingPolicies",
  tags,
  summary: "Routing policies of a network",
  description: "Members of the network's group (viewer and up).",
  request: { params: IdParam("Network", "net"), query: PageQuery },
  responses: {
    200: jsonResponse(pageOf(RoutingPolicySchema, "RoutingPolicyPage"), "A page of policies"),
    ...errorResponses(401, 404, 422),
  },
});

export const get = createRoute({
  method: "get",
  path: "/routing-policies/{id}",
  operationId: "getRoutingPolicy",
  tags,
  summary: "One routing policy",
  description: "Members of the network's group (viewer and up).",
  request: { params: IdParam("Routing policy", "rp") },
  responses: { 200: jsonResponse(RoutingPolicySchema, "The policy"), ...errorResponses(401, 404, 422) },
});

export const replace = createRoute({
  method: "put",
  path: "/routing-policies/{id}",
  operationId: "replaceRoutingPolicy",
  tags,
  summary: "Replace a routing policy (owner, admin)",
  description:
    "Owners and admins of the network's group; the same rules as creation apply to the whole new policy. The routing revision moves on and every affected config follows.",
  request: { params: IdParam("Routing policy", "rp"), body: jsonBody(PolicyBody) },
  responses: { 200: jsonResponse(RoutingPolicySchema, "Updated"), ...ruleErrors },
});

export const remove = createRoute({
  method: "delete",
  path: "/routing-policies/{id}",
  operationId: "deleteRoutingPolicy",
  tags,
  summary: "Delete a routing policy (owner, admin)",
  description: "Owners and admins of the network's group. The routing revision moves on and every affected config follows.",
  request: { params: IdParam("Routing policy", "rp") },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 422) },
});

export const status = createRoute({
  method: "get",
  path: "/routing-policies/{id}/status",
  operationId: "getRoutingPolicyStatus",
  tags,
  summary: "A routing policy's path as it runs now",
  description:
    "Members of the network's group (viewer and up). " +
    "Per hop: the node carrying its traffic (a pool's active member), every member's health (reason, last report, probe failures in a row) and the hop's last failover with its reason. A plain gateway node hop is a pool of one.",
  request: { params: IdParam("Routing policy", "rp") },
  responses: { 200: jsonResponse(PolicyStatusSchema, "The policy's status"), ...errorResponses(401, 404, 422) },
});
