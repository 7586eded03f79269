import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { GatewaySchema } from "../../schemas/inventory";
import { ManagerGatewayUpdateBody, RegisterGatewayBody } from "./manager.schemas";

const tags = ["Agents"];

export const list = createRoute({
  method: "get",
  path: "/agents/me/gateways",
  operationId: "listManagedGateways",
  tags,
  summary: "The gateways of the manager's region",
  description: "Gateway-manager agents only (agentAuth; a daemon gets 403): the gateways of the manager's own region.",
  request: { query: PageQuery },
  responses: { 200: jsonResponse(pageOf(GatewaySchema, "ManagedGatewayPage"), "A page of gateways"), ...errorResponses(401, 403, 422) },
});
export const register = createRoute({
  method: "post",
  path: "/agents/me/gateways",
  operationId: "registerManagedGateway",
  tags,
  summary: "Register a gateway in the manager's region",
  description:
    "Gateway-manager agents only (agentAuth; a daemon gets 403). The gateway joins the inventory in the manager's region; 409 for a name already used.",
  request: { body: jsonBody(RegisterGatewayBody) },
  responses: { 201: jsonResponse(GatewaySchema, "Registered"), ...errorResponses(401, 403, 409, 413, 415, 422) },
});
export const update = createRoute({
  method: "patch",
  path: "/agents/me/gateways/{id}",
  operationId: "updateManagedGateway",
  tags,
  summary: "Update a gateway of the region: endpoint, capacity, status, health",
  description: "Gateway-manager agents only (agentAuth), for gateways of their own region (others answer 404).",
  request: { params: IdParam("Gateway", "gw"), body: jsonBody(ManagerGatewayUpdateBody) },
  responses: { 200: jsonResponse(GatewaySchema, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});
