import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { GatewaySchema } from "../../schemas/inventory";
import { asManager } from "./guards";
import { ManagerGatewayUpdateBody, RegisterGatewayBody } from "./manager.schemas";

const tags = ["Agents"];

export const list = createRoute({
  method: "get",
  path: "/agents/me/gateways",
  tags,
  ...asManager,
  summary: "The gateways of the manager's region",
  request: { query: PageQuery },
  responses: { 200: jsonResponse(pageOf(GatewaySchema, "ManagedGatewayPage"), "A page of gateways"), ...errorResponses(401, 403, 422) },
});
export const register = createRoute({
  method: "post",
  path: "/agents/me/gateways",
  tags,
  ...asManager,
  summary: "Register a gateway in the manager's region",
  request: { body: jsonBody(RegisterGatewayBody) },
  responses: { 201: jsonResponse(GatewaySchema, "Registered"), ...errorResponses(401, 403, 409, 413, 415, 422) },
});
export const update = createRoute({
  method: "patch",
  path: "/agents/me/gateways/{id}",
  tags,
  ...asManager,
  summary: "Update a gateway of the region: endpoint, capacity, status, health",
  request: { params: IdParam("Gateway", "gw"), body: jsonBody(ManagerGatewayUpdateBody) },
  responses: { 200: jsonResponse(GatewaySchema, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});
