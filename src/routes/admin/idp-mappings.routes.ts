import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { IdpGroupMappingBody, IdpGroupMappingSchema } from "./idp-mappings.schemas";

const tags = ["Admin"];

export const create = createRoute({
  method: "post",
  path: "/admin/idp-group-mappings",
  operationId: "createIdpGroupMapping",
  tags,
  summary: "Map an IdP group onto one of our groups with a role (platform admins)",
  description:
    "Platform admins only (403 otherwise). Everyone in the IdP group gets the role at once, as a membership whose source is idp; where several mappings reach one group, the highest role wins, and a membership added by hand is left as it is. 404 for an unknown group, 409 when this IdP group is already mapped onto it.",
  request: { body: jsonBody(IdpGroupMappingBody) },
  responses: { 201: jsonResponse(IdpGroupMappingSchema, "Mapped"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/admin/idp-group-mappings",
  operationId: "listIdpGroupMappings",
  tags,
  summary: "IdP group mappings, oldest first (platform admins)",
  description: "Platform admins only (403 otherwise).",
  request: { query: PageQuery },
  responses: {
    200: jsonResponse(pageOf(IdpGroupMappingSchema, "IdpGroupMappingPage"), "A page of mappings"),
    ...errorResponses(401, 403, 422),
  },
});

export const remove = createRoute({
  method: "delete",
  path: "/admin/idp-group-mappings/{id}",
  operationId: "deleteIdpGroupMapping",
  tags,
  summary: "Remove an IdP group mapping (platform admins)",
  description:
    "Platform admins only (403 otherwise). The memberships it gave go (or fall to another mapping's role); someone left with no group at all, and none added by hand, is signed out and their devices leave.",
  request: { params: IdParam("IdP group mapping", "idm") },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 422) },
});
