import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { CreateGroupBody, GroupSchema, UpdateGroupBody } from "./groups.schemas";

const tags = ["Groups"];
const params = IdParam("Group", "grp");

export const create = createRoute({
  method: "post",
  path: "/groups",
  tags,
  summary: "Create a group; the caller becomes its owner",
  request: { body: jsonBody(CreateGroupBody) },
  responses: { 201: jsonResponse(GroupSchema, "Created"), ...errorResponses(401, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/groups",
  tags,
  summary: "Groups the caller belongs to (platform admins: all groups)",
  request: { query: PageQuery },
  responses: { 200: jsonResponse(pageOf(GroupSchema, "GroupPage"), "A page of groups"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/groups/{id}",
  tags,
  summary: "One group",
  request: { params },
  responses: { 200: jsonResponse(GroupSchema, "The group"), ...errorResponses(401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/groups/{id}",
  tags,
  summary: "Rename a group (owner, admin)",
  request: { params, body: jsonBody(UpdateGroupBody) },
  responses: { 200: jsonResponse(GroupSchema, "Updated"), ...errorResponses(401, 403, 404, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/groups/{id}",
  tags,
  summary: "Delete a group (owner); refused while it owns networks",
  request: { params },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 409) },
});
