import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonResponse } from "../../lib/openapi";
import { pageOf } from "../../lib/pagination";
import { AuditEventSchema, AuditQuery } from "./audit.schemas";

export const list = createRoute({
  method: "get",
  path: "/audit",
  operationId: "listAuditEvents",
  tags: ["Audit"],
  summary: "Successful mutations: who, what, when, which ids (group owners and admins; platform admins see all)",
  description:
    "Group owners and admins for their groups; platform admins for everything. " +
    "Without filters: the events of every group you own or administer. groupId or networkId you cannot see: 404; one you only read: 403.",
  request: { query: AuditQuery },
  responses: {
    200: jsonResponse(pageOf(AuditEventSchema, "AuditEventPage"), "A page of audit events"),
    ...errorResponses(401, 403, 404, 422),
  },
});
