import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { UserSchema } from "../../schemas/users";
import { CreateUserBody, UpdateUserBody, UserListQuery } from "./users.schemas";

const tags = ["Users"];
const params = IdParam("User (or `me`)", "usr");

export const create = createRoute({
  method: "post",
  path: "/users",
  operationId: "createUser",
  tags,
  summary: "Create a user (platform admins)",
  description:
    "Platform admins only (403 otherwise). The email must be unused (409). Other people get accounts by accepting an invite, when sign-up allows it (PUT /admin/settings, signUp.mode).",
  request: { body: jsonBody(CreateUserBody) },
  responses: { 201: jsonResponse(UserSchema, "Created"), ...errorResponses(401, 403, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/users",
  operationId: "listUsers",
  tags,
  summary: "All users (platform admins)",
  description: "Platform admins only (403 otherwise), filtered by the query.",
  request: { query: PageQuery.extend(UserListQuery.shape) },
  responses: { 200: jsonResponse(pageOf(UserSchema, "UserPage"), "A page of users"), ...errorResponses(401, 403, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/users/{id}",
  operationId: "getUser",
  tags,
  summary: "One user (platform admins; anyone for themselves)",
  description: "Platform admins see any user; everyone else sees only themselves (`me` or their own id; any other id answers 404).",
  request: { params },
  responses: { 200: jsonResponse(UserSchema, "The user"), ...errorResponses(401, 404, 422) },
});

export const update = createRoute({
  method: "patch",
  path: "/users/{id}",
  operationId: "updateUser",
  tags,
  summary: "Rename, change the platform role, disable or enable a user (platform admins)",
  description:
    "Platform admins only (403 otherwise). " +
    "Disabling ends every session of the user at once. Admins cannot change their own role or disable themselves.",
  request: { params, body: jsonBody(UpdateUserBody) },
  responses: { 200: jsonResponse(UserSchema, "Updated"), ...errorResponses(400, 401, 403, 404, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/users/{id}",
  operationId: "deleteUser",
  tags,
  summary: "Delete a user and their sessions, memberships and devices (platform admins)",
  description:
    "Platform admins only (403 otherwise). " +
    "Refused (409) while the user is the only owner of a group, and for the caller's own account (400).",
  request: { params },
  responses: { 204: noContent, ...errorResponses(400, 401, 403, 404, 409, 422) },
});
