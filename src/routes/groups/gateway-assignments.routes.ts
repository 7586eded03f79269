import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { AssignmentParams, CreateGatewayAssignmentBody, GatewayAssignmentSchema } from "./gateway-assignments.schemas";

const tags = ["Gateways"];

export const list = createRoute({
  method: "get",
  path: "/groups/{id}/gateway-assignments",
  operationId: "listGatewayAssignments",
  tags,
  summary: "The inventory gateways and regions a group may put gateway nodes on",
  description:
    "Any member of the group (viewer and up) and platform admins. A gateway node of the group's networks may run only on a gateway assigned here, directly or through its region.",
  request: { params: IdParam("Group", "grp"), query: PageQuery },
  responses: {
    200: jsonResponse(pageOf(GatewayAssignmentSchema, "GatewayAssignmentPage"), "A page of assignments"),
    ...errorResponses(401, 404, 422),
  },
});

export const create = createRoute({
  method: "post",
  path: "/groups/{id}/gateway-assignments",
  operationId: "createGatewayAssignment",
  tags,
  summary: "Assign a gateway or a region to a group (platform admins)",
  description:
    "Platform admins only (403 for members of the group, 404 for others). The body names one gateway or one region (all its gateways). 400 for a gateway or region that does not exist, 409 for an assignment the group already has.",
  request: { params: IdParam("Group", "grp"), body: jsonBody(CreateGatewayAssignmentBody) },
  responses: { 201: jsonResponse(GatewayAssignmentSchema, "Assigned"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/groups/{id}/gateway-assignments/{assignmentId}",
  operationId: "deleteGatewayAssignment",
  tags,
  summary: "Withdraw a gateway assignment (platform admins)",
  description:
    "Platform admins only (403 for members of the group, 404 for others). 409, naming them, while gateway nodes of the group's networks run on a gateway that no other assignment of the group covers.",
  request: { params: AssignmentParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});
