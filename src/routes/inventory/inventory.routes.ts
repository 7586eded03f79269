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
  tags: ["Regions"],
  summary: "Create a region (platform admins)",
  request: { body: jsonBody(CreateRegionBody) },
  responses: { 201: jsonResponse(RegionSchema, "Created"), ...writeErrors },
});
export const listRegions = createRoute({
  method: "get",
  path: "/regions",
  tags: ["Regions"],
  summary: "Regions",
  request: { query: PageQuery },
  responses: { 200: jsonResponse(pageOf(RegionSchema, "RegionPage"), "A page of regions"), ...errorResponses(401, 422) },
});
export const getRegion = createRoute({
  method: "get",
  path: "/regions/{id}",
  tags: ["Regions"],
  summary: "One region",
  request: { params: IdParam("Region", "reg") },
  responses: { 200: jsonResponse(RegionSchema, "The region"), ...errorResponses(401, 404) },
});
export const updateRegion = createRoute({
  method: "patch",
  path: "/regions/{id}",
  tags: ["Regions"],
  summary: "Change a region (platform admins)",
  request: { params: IdParam("Region", "reg"), body: jsonBody(UpdateRegionBody) },
  responses: { 200: jsonResponse(RegionSchema, "Updated"), ...writeErrors },
});
export const deleteRegion = createRoute({
  method: "delete",
  path: "/regions/{id}",
  tags: ["Regions"],
  summary: "Delete a region without gateways (platform admins)",
  request: { params: IdParam("Region", "reg") },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409) },
});

export const createGateway = createRoute({
  method: "post",
  path: "/gateways",
  tags: ["Gateways"],
  summary: "Add a gateway to the inventory (platform admins)",
  request: { body: jsonBody(CreateGatewayBody) },
  responses: { 201: jsonResponse(GatewaySchema, "Created"), ...errorResponses(400, 401, 403, 409, 413, 415, 422) },
});
export const listGateways = createRoute({
  method: "get",
  path: "/gateways",
  tags: ["Gateways"],
  summary: "The shared gateway inventory",
  request: { query: PageQuery.extend(GatewayListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(GatewaySchema, "GatewayPage"), "A page of gateways"), ...errorResponses(401, 422) },
});
export const getGateway = createRoute({
  method: "get",
  path: "/gateways/{id}",
  tags: ["Gateways"],
  summary: "One gateway",
  request: { params: IdParam("Gateway", "gw") },
  responses: { 200: jsonResponse(GatewayDetailSchema, "The gateway and the networks it serves"), ...errorResponses(401, 404) },
});
export const updateGateway = createRoute({
  method: "patch",
  path: "/gateways/{id}",
  tags: ["Gateways"],
  summary: "Change a gateway (platform admins); status affects eligibility of new policy hops only",
  request: { params: IdParam("Gateway", "gw"), body: jsonBody(UpdateGatewayBody) },
  responses: { 200: jsonResponse(GatewaySchema, "Updated"), ...writeErrors },
});
export const deleteGateway = createRoute({
  method: "delete",
  path: "/gateways/{id}",
  tags: ["Gateways"],
  summary: "Remove a gateway no node references (platform admins)",
  request: { params: IdParam("Gateway", "gw") },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409) },
});
