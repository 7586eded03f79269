import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { CreateGroupBody, GroupSchema, UpdateGroupBody } from "./groups.schemas";

const tags = ["Groups"];
const params = IdParam("Group", "grp");

export const create = createRoute({
  method: "post",
  path: "/groups",
  operationId: "createGroup",
  tags,
  summary: "Create a group; the caller becomes its owner",
  description: "Any signed-in user; the caller becomes the group's owner.",
  request: { body: jsonBody(CreateGroupBody) },
  responses: { 201: jsonResponse(GroupSchema, "Created"), ...errorResponses(401, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/groups",
  operationId: "listGroups",
  tags,
  summary: "Groups the caller belongs to (platform admins: all groups)",
  description: "Any signed-in user: the groups they belong to, with their role. Platform admins see every group.",
  request: { query: PageQuery },
  responses: { 200: jsonResponse(pageOf(GroupSchema, "GroupPage"), "A page of groups"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/groups/{id}",
  operationId: "getGroup",
  tags,
  summary: "One group",
  description: "Members of the group (any role) and platform admins; others get 404, as if it did not exist.",
  request: { params },
  responses: { 200: jsonResponse(GroupSchema, "The group"), ...errorResponses(401, 404, 422) },
});

export const update = createRoute({
  method: "patch",
  path: "/groups/{id}",
  operationId: "updateGroup",
  tags,
  summary: "Rename a group (owner, admin)",
  description: "Group owners and admins (platform admins act as owners). Viewers and members get 403.",
  request: { params, body: jsonBody(UpdateGroupBody) },
  responses: { 200: jsonResponse(GroupSchema, "Updated"), ...errorResponses(401, 403, 404, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/groups/{id}",
  operationId: "deleteGroup",
  tags,
  summary: "Delete a group (owner); refused while it owns networks",
  description: "Group owners only (platform admins act as owners). 409 while the group still owns networks: delete them first.",
  request: { params },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409, 422) },
});
