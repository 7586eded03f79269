import { createRoute, z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent, Timestamp } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";

const tags = ["Managed client"];

export const EnrolmentKeySchema = z
  .object({
    id: z.string(),
    networkId: z.string(),
    name: z.string(),
    expiresAt: Timestamp,
    usageLimit: z.number().int(),
    usedCount: z.number().int(),
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
  tags,
  summary: "Create a headless enrolment key for a network (owner, admin)",
  request: { params: IdParam("Network", "net"), body: jsonBody(CreateKeyBody) },
  responses: { 201: jsonResponse(CreatedKeySchema, "Created"), ...errorResponses(401, 403, 404, 413, 415, 422) },
});

export const list = createRoute({
  method: "get",
  path: "/networks/{id}/enrolment-keys",
  tags,
  summary: "Enrolment keys of a network (owner, admin); secrets are never shown again",
  request: { params: IdParam("Network", "net"), query: PageQuery },
  responses: { 200: jsonResponse(pageOf(EnrolmentKeySchema, "EnrolmentKeyPage"), "A page of keys"), ...errorResponses(401, 403, 404, 422) },
});

export const revoke = createRoute({
  method: "delete",
  path: "/networks/{id}/enrolment-keys/{keyId}",
  tags,
  summary: "Revoke an enrolment key (owner, admin); devices already enrolled stay",
  request: { params: KeyParams },
  responses: { 204: noContent, ...errorResponses(401, 403, 404) },
});
