import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonResponse } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { AccessRevisionPageSchema, AccessRevisionSchema, RevisionParams } from "./access-policy-revisions.schemas";

const tags = ["Access policies"];

export const list = createRoute({
  method: "get",
  path: "/networks/{id}/access-policy/revisions",
  operationId: "listAccessPolicyRevisions",
  tags,
  summary: "The access policy's revisions, newest first",
  description: "Members of the network's group (viewer and up). Every PUT wrote one; none is ever rewritten.",
  request: { params: IdParam("Network", "net"), query: PageQuery },
  responses: { 200: jsonResponse(AccessRevisionPageSchema, "A page of revisions"), ...errorResponses(401, 404, 422) },
});

export const read = createRoute({
  method: "get",
  path: "/networks/{id}/access-policy/revisions/{revision}",
  operationId: "getAccessPolicyRevision",
  tags,
  summary: "One revision of the access policy, as written",
  description:
    "Members of the network's group (viewer and up). To roll back, PUT its rules and tests to /networks/{id}/access-policy (with If-Match of the current revision): that writes a new revision, and its tests run again.",
  request: { params: RevisionParams },
  responses: { 200: jsonResponse(AccessRevisionSchema, "The revision"), ...errorResponses(401, 404, 422) },
});
