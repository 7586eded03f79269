import { createRoute } from "@hono/zod-openapi";
import { scimErrors } from "./scim-errors";
import { ScimDocument, scimListOf, scimResponse } from "./scim.schemas";

const tags = ["SCIM"];

export const serviceProviderConfig = createRoute({
  method: "get",
  path: "/scim/v2/ServiceProviderConfig",
  operationId: "scimServiceProviderConfig",
  tags,
  summary: "What this SCIM provider supports",
  description: "PATCH and filters (eq, at most 200 a page) yes; bulk, sort, ETags and password changes no.",
  responses: { 200: scimResponse(ScimDocument, "RFC 7644 §5"), ...scimErrors(401) },
});

export const resourceTypes = createRoute({
  method: "get",
  path: "/scim/v2/ResourceTypes",
  operationId: "scimResourceTypes",
  tags,
  summary: "The resource types: User and Group",
  description: "RFC 7644 §4: each type's endpoint and core schema (no extensions are kept).",
  responses: { 200: scimResponse(scimListOf(ScimDocument, "ScimResourceTypeList"), "A ListResponse"), ...scimErrors(401) },
});

export const schemas = createRoute({
  method: "get",
  path: "/scim/v2/Schemas",
  operationId: "scimSchemas",
  tags,
  summary: "The attributes kept of a User and a Group",
  description: "RFC 7643 §7: the attributes stored and returned; any other attribute a client sends is ignored.",
  responses: { 200: scimResponse(scimListOf(ScimDocument, "ScimSchemaList"), "A ListResponse"), ...scimErrors(401) },
});
