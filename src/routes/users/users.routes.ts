import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, jsonResponse, signedIn } from "../../lib/openapi";
import { CreateUserBody, UserSchema } from "./users.schemas";

const tags = ["Users"];

export const me = createRoute({
  method: "get", path: "/users/me", tags, ...signedIn,
  summary: "The signed-in user",
  responses: { 200: jsonResponse(UserSchema, "The caller"), ...errorResponses(401) },
});

export const create = createRoute({
  method: "post", path: "/users", tags, ...signedIn,
  summary: "Create a user (platform admins)",
  request: { body: jsonBody(CreateUserBody) },
  responses: { 201: jsonResponse(UserSchema, "Created"), ...errorResponses(401, 403, 409, 413, 415, 422) },
});
