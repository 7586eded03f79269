import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  AccessCheckQuery,
  AccessCheckSchema,
  AccessPolicyBody,
  AccessPolicySchema,
  AccessPreviewSchema,
  AccessSourcesQuery,
  AccessSourcesSchema,
} from "./access-policies.schemas";

const tags = ["Access policies"];

export const get = createRoute({
  method: "get",
  path: "/networks/{id}/access-policy",
  operationId: "getAccessPolicy",
  tags,
  summary: "The network's access policy",
  description: "Members of the network's group (viewer and up). Enforced only while the network's accessMode is policy (docs/access.md).",
  request: { params: IdParam("Network", "net") },
  responses: { 200: jsonResponse(AccessPolicySchema, "The policy in force"), ...errorResponses(401, 404, 422) },
});

export const put = createRoute({
  method: "put",
  path: "/networks/{id}/access-policy",
  operationId: "putAccessPolicy",
  tags,
  summary: "Replace the network's access policy (owner, admin)",
  description:
    "The whole document, as a new revision. Its tests run first against the network's nodes: when any fails the answer is 400 validation_error listing every failing test in fields[], and nothing changes. " +
    'If-Match: "<revision>" refuses the write with 412 when another revision was written since. In policy mode every node\'s config follows as a delta.',
  request: {
    params: IdParam("Network", "net"),
    headers: z.object({
      "if-match": z.string().optional().openapi({ description: 'The revision last read, quoted: "3"', example: '"3"' }),
    }),
    body: jsonBody(AccessPolicyBody),
  },
  responses: {
    200: jsonResponse(AccessPolicySchema, "The policy now in force"),
    ...errorResponses(400, 401, 403, 404, 412, 413, 415, 422),
  },
});

export const preview = createRoute({
  method: "post",
  path: "/networks/{id}/access-policy/preview",
  operationId: "previewAccessPolicy",
  tags,
  summary: "What a candidate access policy would change, without applying it",
  description:
    "The group's owners and admins, and platform admins (403 for members and viewers: its answers say whose devices are whose). The PUT's body. Per node, the peers it would gain and lose; the flows newly allowed and denied, by groups of nodes alike; the tests that would fail. Compared with the network as it is now (open mode compares with everything allowed).",
  request: { params: IdParam("Network", "net"), body: jsonBody(AccessPolicyBody) },
  responses: { 200: jsonResponse(AccessPreviewSchema, "The changes it would make"), ...errorResponses(401, 403, 404, 413, 415, 422) },
});

export const check = createRoute({
  method: "get",
  path: "/networks/{id}/access-check",
  operationId: "checkAccess",
  tags,
  summary: "Whether one flow is allowed, and the rule that decided",
  description:
    "The group's owners and admins, and platform admins (403 for members and viewers: its answers say whose devices are whose). Decided as the network's configs and filters decide it now (open mode allows everything).",
  request: { params: IdParam("Network", "net"), query: AccessCheckQuery },
  responses: { 200: jsonResponse(AccessCheckSchema, "The decision"), ...errorResponses(401, 403, 404, 422) },
});

export const sources = createRoute({
  method: "get",
  path: "/networks/{id}/access-sources",
  operationId: "accessSources",
  tags,
  summary: "Who may reach one node, and the rules that decide it",
  description:
    "The group's owners and admins, and platform admins (403 for members and viewers: its answers say whose devices are whose). Every node that may send dst something now, grouped by nodes alike, with the ports and the allow and deny rules that decide them (open mode: everyone, every port, no rule).",
  request: { params: IdParam("Network", "net"), query: AccessSourcesQuery },
  responses: { 200: jsonResponse(AccessSourcesSchema, "The sources"), ...errorResponses(401, 403, 404, 422) },
});
