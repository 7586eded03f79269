import { createRoute, z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent, Timestamp } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { NodeTags } from "../../schemas/nodes";

const tags = ["Managed client"];

export const EnrolmentKeySchema = z
  .object({
    id: z.string(),
    networkId: z.string(),
    name: z.string(),
    expiresAt: Timestamp,
    usageLimit: z.number().int(),
    usedCount: z.number().int(),
    tags: z.array(z.string()).openapi({ description: "Access-policy tags every device this key enrols gets (docs/access.md)" }),
    revokedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi("EnrolmentKey");

const CreatedKeySchema = EnrolmentKeySchema.extend({
  key: z.string().openapi({ description: "The secret (ek_…), shown only in this response" }),
}).openapi("CreatedEnrolmentKey");

const CreateKeyBody = z
  .strictObject({
    name: displayName({ min: 1, max: 100 }),
    expiresInSeconds: z.number().int().min(60).max(31_536_000).default(604_800),
    usageLimit: z.number().int().min(1).max(10_000).default(1),
    tags: NodeTags.default([]),
  })
  .openapi("CreateEnrolmentKey");

const KeyParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" } }),
  keyId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "keyId", in: "path" } }),
});

export const create = createRoute({
  method: "post",
  path: "/networks/{id}/enrolment-keys",
  operationId: "createEnrolmentKey",
  tags,
  summary: "Create a headless enrolment key for a network (owner, admin)",
  description:
    "Owners and admins of the network's group. The key (ek_…) is shown only in this answer: give it to a headless machine, which enrols with POST /client/devices and no user token. It works usageLimit times (default 1) until it expires (expiresInSeconds, default 7 days) or is revoked. " +
    "Every device it enrols gets its tags (access-policy tags, docs/access.md); the key is written only while its creator still manages the network (403 otherwise).",
  request: { params: IdParam("Network", "net"), body: jsonBody(CreateKeyBody) },
  responses: { 201: jsonResponse(CreatedKeySchema, "Created"), ...errorResponses(401, 403, 404, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/networks/{id}/enrolment-keys",
  operationId: "listEnrolmentKeys",
  tags,
  summary: "Enrolment keys of a network (owner, admin); secrets are never shown again",
  description: "Owners and admins of the network's group: every key with its use count; secrets are never shown again.",
  request: { params: IdParam("Network", "net"), query: PageQuery },
  responses: { 200: jsonResponse(pageOf(EnrolmentKeySchema, "EnrolmentKeyPage"), "A page of keys"), ...errorResponses(401, 403, 404, 422) },
});

export const revoke = createRoute({
  method: "delete",
  path: "/networks/{id}/enrolment-keys/{keyId}",
  operationId: "revokeEnrolmentKey",
  tags,
  summary: "Revoke an enrolment key (owner, admin); devices already enrolled stay",
  description: "Owners and admins of the network's group. The key stops working at once; devices it already enrolled stay.",
  request: { params: KeyParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404, 422) },
});
