import { z } from "@hono/zod-openapi";
import { ACTOR_TYPES, type AuditEvent } from "../../services/audit/log";
import { Timestamp } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { OrderQuery } from "../../services/audit/page-order";

export const AuditEventSchema = z
  .object({
    id: z.string().openapi({ example: "aud_..." }),
    at: Timestamp,
    actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string().nullable() }),
    method: z.string().openapi({ example: "PUT" }),
    route: z.string().openapi({ example: "/routing-policies/:id", description: "The route pattern, below /api/v1" }),
    params: z.record(z.string(), z.string()).openapi({ description: "Ids in the path: what the request addressed (before)" }),
    resourceId: z.string().nullable().openapi({ description: "The id the response named, else the last path id (after)" }),
    groupId: z.string().nullable(),
    networkId: z.string().nullable(),
    status: z.number().int(),
    requestId: z.string().openapi({ description: "The X-Request-Id of the request" }),
  })
  .openapi("AuditEvent");

const Id = z.string().min(1).max(64);

export const AuditQuery = PageQuery.extend(OrderQuery.shape).extend({
  groupId: Id.optional(),
  networkId: Id.optional(),
  actorId: Id.optional().openapi({ description: "A user, device or agent id" }),
});

export const presentAuditEvent = (row: AuditEvent): z.infer<typeof AuditEventSchema> => ({
  id: row.id,
  at: row.createdAt,
  actor: { type: row.actorType, id: row.actorId },
  method: row.method,
  route: row.route,
  params: row.params,
  resourceId: row.resourceId,
  groupId: row.groupId,
  networkId: row.networkId,
  status: row.status,
  requestId: row.requestId,
});
