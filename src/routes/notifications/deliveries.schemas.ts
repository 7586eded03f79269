import { z } from "@hono/zod-openapi";
import { DELIVERY_STATUSES, type DeliveryRow } from "../../services/notifications/deliveries";
import { Timestamp } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { OrderQuery } from "../../services/audit/page-order";
import { MAX_ATTEMPTS } from "../../services/notifications/backoff";

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: "nev_...", description: "Also the webhook's X-Overlay-Event-Id: the idempotency key" }),
    type: z.string().openapi({ example: "config.drift" }),
    networkId: z.string().nullable(),
    groupId: z.string().nullable(),
    subjectId: z.string().nullable().openapi({ description: "The node, gateway, policy or device it is about" }),
    data: z.record(z.string(), z.unknown()),
    createdAt: Timestamp,
  })
  .openapi("NotificationEvent");

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: "ndl_..." }),
    channelId: z.string(),
    status: z.enum(DELIVERY_STATUSES).openapi({ description: "pending (queued or retrying), delivered, failed (gave up)" }),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    nextAttemptAt: Timestamp.nullable(),
    lastAttemptAt: Timestamp.nullable(),
    lastStatusCode: z.number().int().nullable().openapi({ description: "HTTP status of the webhook's last answer" }),
    lastError: z.string().nullable(),
    deliveredAt: Timestamp.nullable(),
    event: EventSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("NotificationDelivery");

export const DeliveryQuery = PageQuery.extend(OrderQuery.shape).extend({
  channelId: z.string().max(64).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  eventType: z.string().max(64).optional(),
});

export const presentEvent = (event: DeliveryRow["event"]): z.infer<typeof EventSchema> => ({
  id: event.id,
  type: event.type,
  networkId: event.networkId,
  groupId: event.groupId,
  subjectId: event.subjectId,
  data: event.data,
  createdAt: event.createdAt,
});

export const presentDelivery = (row: DeliveryRow): z.infer<typeof DeliverySchema> => ({
  id: row.delivery.id,
  channelId: row.delivery.channelId,
  status: row.delivery.status,
  attempts: row.delivery.attempts,
  maxAttempts: MAX_ATTEMPTS,
  nextAttemptAt: row.delivery.status === "pending" ? row.delivery.nextAttemptAt : null,
  lastAttemptAt: row.delivery.lastAttemptAt,
  lastStatusCode: row.delivery.lastStatusCode,
  lastError: row.delivery.lastError,
  deliveredAt: row.delivery.deliveredAt,
  event: presentEvent(row.event),
  createdAt: row.delivery.createdAt,
  updatedAt: row.delivery.updatedAt,
});
