import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { UserSchema } from "../../schemas/users";
import { ChangePasswordBody, UpdateMeBody } from "./users.schemas";

const tags = ["Users"];

export const me = createRoute({
  method: "get",
  path: "/users/me",
  tags,
  summary: "The signed-in user",
  responses: { 200: jsonResponse(UserSchema, "The caller"), ...errorResponses(401) },
});

export const updateMe = createRoute({
  method: "patch",
  path: "/users/me",
  tags,
  summary: "Change the caller's display name",
  request: { body: jsonBody(UpdateMeBody) },
  responses: { 200: jsonResponse(UserSchema, "Updated"), ...errorResponses(401, 413, 415, 422) },
});

export const changePassword = createRoute({
  method: "post",
  path: "/users/me/password",
  tags,
  summary: "Change the caller's password; every other session ends",
  description: "A wrong current password counts against the account's login throttle.",
  request: { body: jsonBody(ChangePasswordBody) },
  responses: { 204: noContent, ...errorResponses(400, 401, 413, 415, 422, 429) },
});
