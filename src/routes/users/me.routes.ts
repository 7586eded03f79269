import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { UserSchema } from "../../schemas/users";
import { ChangePasswordBody, UpdateMeBody } from "./users.schemas";

const tags = ["Users"];

export const me = createRoute({
  method: "get",
  path: "/users/me",
  operationId: "getMe",
  tags,
  summary: "The signed-in user",
  description: "Any signed-in user: their own account, platform role included.",
  responses: { 200: jsonResponse(UserSchema, "The caller"), ...errorResponses(401) },
});

export const updateMe = createRoute({
  method: "patch",
  path: "/users/me",
  operationId: "updateMe",
  tags,
  summary: "Change the caller's display name",
  description:
    "Any signed-in user, for their own account. Only the display name changes here; platform admins change roles with PATCH /users/{id}.",
  request: { body: jsonBody(UpdateMeBody) },
  responses: { 200: jsonResponse(UserSchema, "Updated"), ...errorResponses(401, 413, 415, 422) },
});

export const changePassword = createRoute({
  method: "post",
  path: "/users/me/password",
  operationId: "changeMyPassword",
  tags,
  summary: "Change the caller's password; every other session ends",
  description:
    "Any signed-in user, with the current password. The session making the call stays signed in. " +
    "A wrong current password counts against the account's login throttle.",
  request: { body: jsonBody(ChangePasswordBody) },
  responses: { 204: noContent, ...errorResponses(400, 401, 413, 415, 422, 429) },
});
