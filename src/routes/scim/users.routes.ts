import { createRoute } from "@hono/zod-openapi";
import { noContent } from "../../lib/openapi";
import { scimErrors } from "./scim-errors";
import {
  scimBody,
  ScimIdParam,
  ScimListQuery,
  ScimPatchBody,
  scimListOf,
  scimResponse,
  ScimUserBody,
  ScimUserSchema,
} from "./scim.schemas";

const tags = ["SCIM"];
const request = { params: ScimIdParam };

export const create = createRoute({
  method: "post",
  path: "/scim/v2/Users",
  operationId: "scimCreateUser",
  tags,
  summary: "Provision a person",
  description:
    "userName is the sign-in email (or emails[primary] when userName is a UPN). 409 uniqueness when a user already has it. The person has no password: they sign in through the identity provider. `active: false` makes them disabled.",
  request: { body: scimBody(ScimUserBody) },
  responses: { 201: scimResponse(ScimUserSchema, "Provisioned"), ...scimErrors(400, 401, 409, 413, 415) },
});

export const list = createRoute({
  method: "get",
  path: "/scim/v2/Users",
  operationId: "scimListUsers",
  tags,
  summary: "People, filtered and paged",
  description: 'Filters: eq on userName, externalId, id or emails.value, joined by "and" (anything else: 400 invalidFilter).',
  request: { query: ScimListQuery },
  responses: { 200: scimResponse(scimListOf(ScimUserSchema, "ScimUserList"), "A ListResponse"), ...scimErrors(400, 401) },
});

export const get = createRoute({
  method: "get",
  path: "/scim/v2/Users/{id}",
  operationId: "scimGetUser",
  tags,
  summary: "One person",
  description: "404 when no user has the id.",
  request,
  responses: { 200: scimResponse(ScimUserSchema, "The person"), ...scimErrors(400, 401, 404) },
});

export const replace = createRoute({
  method: "put",
  path: "/scim/v2/Users/{id}",
  operationId: "scimReplaceUser",
  tags,
  summary: "Replace a person's attributes",
  description:
    "`active: false` ends every session and removes the person's devices from every peer's configuration in the same answer. A platform admin's sign-in email is not the directory's to change (400 mutability), nor is the last active platform admin its to deactivate (409).",
  request: { ...request, body: scimBody(ScimUserBody) },
  responses: { 200: scimResponse(ScimUserSchema, "Replaced"), ...scimErrors(400, 401, 404, 409, 413, 415) },
});

export const patch = createRoute({
  method: "patch",
  path: "/scim/v2/Users/{id}",
  operationId: "scimPatchUser",
  tags,
  summary: "Change some of a person's attributes",
  description:
    'Okta\'s and Entra\'s forms: replace with a path or a value object, ops in any case, "True"/"False" strings. `active: false` ends access as PUT does.',
  request: { ...request, body: scimBody(ScimPatchBody) },
  responses: { 200: scimResponse(ScimUserSchema, "Changed"), ...scimErrors(400, 401, 404, 409, 413, 415) },
});

export const remove = createRoute({
  method: "delete",
  path: "/scim/v2/Users/{id}",
  operationId: "scimDeleteUser",
  tags,
  summary: "Deprovision and delete a person",
  description:
    "Sessions end and devices leave every configuration first, then the account and its memberships go. A platform admin is not deleted by the directory (400 mutability): deactivate them instead.",
  request,
  responses: { 204: noContent, ...scimErrors(400, 401, 404, 409) },
});
