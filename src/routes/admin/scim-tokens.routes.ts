import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { IssuedScimTokenSchema, ScimTokenBody, ScimTokenSchema } from "./scim-tokens.schemas";

const tags = ["Admin"];

export const create = createRoute({
  method: "post",
  path: "/admin/scim-tokens",
  operationId: "createScimToken",
  tags,
  summary: "Make a SCIM bearer token for an identity provider (platform admins)",
  description:
    "Platform admins only (403 otherwise). The token (scim_…) is shown only in this answer; it authenticates the SCIM routes (/api/v1/scim/v2) and no other route. 409 when the name is taken (names stay taken after a revocation).",
  request: { body: jsonBody(ScimTokenBody) },
  responses: { 201: jsonResponse(IssuedScimTokenSchema, "Made"), ...errorResponses(401, 403, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/admin/scim-tokens",
  operationId: "listScimTokens",
  tags,
  summary: "SCIM tokens, oldest first (platform admins)",
  description: "Platform admins only (403 otherwise). Tokens are never shown again, only their names and state.",
  request: { query: PageQuery },
  responses: { 200: jsonResponse(pageOf(ScimTokenSchema, "ScimTokenPage"), "A page of SCIM tokens"), ...errorResponses(401, 403, 422) },
});

export const revoke = createRoute({
  method: "post",
  path: "/admin/scim-tokens/{id}/revoke",
  operationId: "revokeScimToken",
  tags,
  summary: "Revoke a SCIM token at once (platform admins)",
  description: "Platform admins only (403 otherwise). The next SCIM request with it is refused (401).",
  request: { params: IdParam("SCIM token", "sct") },
  responses: { 200: jsonResponse(ScimTokenSchema, "Revoked"), ...errorResponses(401, 403, 404, 422) },
});
