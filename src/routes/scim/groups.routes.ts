import { createRoute } from "@hono/zod-openapi";
import { noContent } from "../../lib/openapi";
import { scimErrors } from "./scim-errors";
import {
  ScimGroupBody,
  ScimGroupSchema,
  scimBody,
  ScimIdParam,
  ScimListQuery,
  ScimPatchBody,
  scimListOf,
  scimResponse,
} from "./scim.schemas";

const tags = ["SCIM"];
const request = { params: ScimIdParam };
const GetQuery = ScimListQuery.pick({ attributes: true, excludedAttributes: true });

export const create = createRoute({
  method: "post",
  path: "/scim/v2/Groups",
  operationId: "scimCreateGroup",
  tags,
  summary: "Push a directory group",
  description:
    "displayName is unique (409 uniqueness). Members name provisioned users by id (an unknown one: 400). When an IdP group mapping names the group (by displayName or externalId), its members get the mapped role.",
  request: { body: scimBody(ScimGroupBody) },
  responses: { 201: scimResponse(ScimGroupSchema, "Pushed"), ...scimErrors(400, 401, 409, 413, 415) },
});

export const list = createRoute({
  method: "get",
  path: "/scim/v2/Groups",
  operationId: "scimListGroups",
  tags,
  summary: "Directory groups, filtered and paged",
  description: 'Filters: eq on displayName, externalId or id, joined by "and". `excludedAttributes=members` leaves members out.',
  request: { query: ScimListQuery },
  responses: { 200: scimResponse(scimListOf(ScimGroupSchema, "ScimGroupList"), "A ListResponse"), ...scimErrors(400, 401) },
});

export const get = createRoute({
  method: "get",
  path: "/scim/v2/Groups/{id}",
  operationId: "scimGetGroup",
  tags,
  summary: "One directory group, with its members",
  description: "`excludedAttributes=members` leaves members out. 404 when no group has the id.",
  request: { ...request, query: GetQuery },
  responses: { 200: scimResponse(ScimGroupSchema, "The group"), ...scimErrors(400, 401, 404) },
});

export const replace = createRoute({
  method: "put",
  path: "/scim/v2/Groups/{id}",
  operationId: "scimReplaceGroup",
  tags,
  summary: "Replace a group's name and members",
  description: "The members become exactly those listed (unknown users: 400); roles that mappings give follow at once.",
  request: { ...request, body: scimBody(ScimGroupBody) },
  responses: { 200: scimResponse(ScimGroupSchema, "Replaced"), ...scimErrors(400, 401, 404, 409, 413, 415) },
});

export const patch = createRoute({
  method: "patch",
  path: "/scim/v2/Groups/{id}",
  operationId: "scimPatchGroup",
  tags,
  summary: "Rename a group, or add and remove members",
  description:
    'Okta\'s add/remove (`members[value eq "…"]`) and Entra\'s ("Add"/"Remove" with a value list). Someone who leaves the last mapped group, with no membership given by hand, is signed out everywhere and their devices leave. Answers 204 (RFC 7644 §3.5.2 allows it): a directory group may have thousands of members.',
  request: { ...request, body: scimBody(ScimPatchBody) },
  responses: { 204: noContent, ...scimErrors(400, 401, 404, 409, 413, 415) },
});

export const remove = createRoute({
  method: "delete",
  path: "/scim/v2/Groups/{id}",
  operationId: "scimDeleteGroup",
  tags,
  summary: "Delete a directory group",
  description: "Its members lose the roles its mappings gave them (a membership added by hand stays).",
  request,
  responses: { 204: noContent, ...scimErrors(400, 401, 404) },
});
