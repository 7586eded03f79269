import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { GatewaySchema, UpdateGatewayBody } from "../../schemas/inventory";
import {
  CreateGatewayBody,
  CreateRegionBody,
  GatewayDetailSchema,
  GatewayListQuery,
  RegionSchema,
  UpdateRegionBody,
} from "./inventory.schemas";

const writeErrors = errorResponses(401, 403, 404, 409, 413, 415, 422);

export const createRegion = createRoute({
  method: "post",
  path: "/regions",
  operationId: "createRegion",
  tags: ["Regions"],
  summary: "Create a region (platform admins)",
  description: "Platform admins only (403 otherwise). The name must be unused (409).",
  request: { body: jsonBody(CreateRegionBody) },
  responses: { 201: jsonResponse(RegionSchema, "Created"), ...writeErrors },
});
export const listRegions = createRoute({
  method: "get",
  path: "/regions",
  operationId: "listRegions",
  tags: ["Regions"],
  summary: "Regions",
  description: "Any signed-in user.",
  request: { query: PageQuery },
  responses: { 200: jsonResponse(pageOf(RegionSchema, "RegionPage"), "A page of regions"), ...errorResponses(401, 422) },
});
export const getRegion = createRoute({
  method: "get",
  path: "/regions/{id}",
  operationId: "getRegion",
  tags: ["Regions"],
  summary: "One region",
  description: "Any signed-in user.",
  request: { params: IdParam("Region", "reg") },
  responses: { 200: jsonResponse(RegionSchema, "The region"), ...errorResponses(401, 404, 422) },
});
export const updateRegion = createRoute({
  method: "patch",
  path: "/regions/{id}",
  operationId: "updateRegion",
  tags: ["Regions"],
  summary: "Change a region (platform admins)",
  description: "Platform admins only (403 otherwise).",
  request: { params: IdParam("Region", "reg"), body: jsonBody(UpdateRegionBody) },
  responses: { 200: jsonResponse(RegionSchema, "Updated"), ...writeErrors },
});
export const deleteRegion = createRoute({
  method: "delete",
  path: "/regions/{id}",
  operationId: "deleteRegion",
  tags: ["Regions"],
  summary: "Delete a region without gateways (platform admins)",
  description: "Platform admins only (403 otherwise). 409 while gateways belong to the region.",
  request: { params: IdParam("Region", "reg") },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});

export const createGateway = createRoute({
  method: "post",
  path: "/gateways",
  operationId: "createGateway",
  tags: ["Gateways"],
  summary: "Add a gateway to the inventory (platform admins)",
  description:
    "Platform admins only (403 otherwise); 400 for an unknown regionId, 409 for a name in use. Gateway nodes of any network then name it as their gatewayId; gateway-manager agents register the gateways of their region themselves (POST /agents/me/gateways).",
  request: { body: jsonBody(CreateGatewayBody) },
  responses: { 201: jsonResponse(GatewaySchema, "Created"), ...errorResponses(400, 401, 403, 409, 413, 415, 422) },
});
export const listGateways = createRoute({
  method: "get",
  path: "/gateways",
  operationId: "listGateways",
  tags: ["Gateways"],
  summary: "The shared gateway inventory",
  description:
    "Any signed-in user: the shared inventory, so network admins can pick a gatewayId for their gateway nodes. Filter by region or status.",
  request: { query: PageQuery.extend(GatewayListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(GatewaySchema, "GatewayPage"), "A page of gateways"), ...errorResponses(401, 422) },
});
export const getGateway = createRoute({
  method: "get",
  path: "/gateways/{id}",
  operationId: "getGateway",
  tags: ["Gateways"],
  summary: "One gateway",
  description: "Any signed-in user: the gateway, and the networks whose gateway nodes run on it that the caller can see.",
  request: { params: IdParam("Gateway", "gw") },
  responses: { 200: jsonResponse(GatewayDetailSchema, "The gateway and the networks it serves"), ...errorResponses(401, 404, 422) },
});
export const updateGateway = createRoute({
  method: "patch",
  path: "/gateways/{id}",
  operationId: "updateGateway",
  tags: ["Gateways"],
  summary: "Change a gateway (platform admins); status affects eligibility of new policy hops only",
  description:
    "Platform admins only (403 otherwise). Status and region decide whether its nodes may become new routing-policy hops (platform settings); existing policies keep working.",
  request: { params: IdParam("Gateway", "gw"), body: jsonBody(UpdateGatewayBody) },
  responses: { 200: jsonResponse(GatewaySchema, "Updated"), ...writeErrors },
});
export const deleteGateway = createRoute({
  method: "delete",
  path: "/gateways/{id}",
  operationId: "deleteGateway",
  tags: ["Gateways"],
  summary: "Remove a gateway no node references (platform admins)",
  description: "Platform admins only (403 otherwise). 409 while a node names it as its gatewayId.",
  request: { params: IdParam("Gateway", "gw") },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});
