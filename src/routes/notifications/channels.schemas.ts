import { z } from "@hono/zod-openapi";
import { CHANNEL_TYPES, type Channel } from "../../services/notifications/channels";
import { Timestamp } from "../../lib/openapi";
import { EVENT_TYPES } from "../../services/notifications/event-types";

const EventList = z
  .array(z.enum(EVENT_TYPES))
  .min(1)
  .max(EVENT_TYPES.length * 2)
  .openapi({ description: "Event types this channel receives (duplicates are ignored)", example: ["node.offline", "config.drift"] });

const Target = z.string().trim().min(1).max(2048).openapi({
  description: "webhook: https URL (public host); email: your account address (the default)",
  example: "https://hooks.example.com/overlay",
});

export const ChannelSchema = z
  .object({
    id: z.string().openapi({ example: "nch_..." }),
    type: z.enum(CHANNEL_TYPES),
    target: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    secretRotatedAt: Timestamp.nullable().openapi({ description: "Webhooks: when the signing secret was last issued" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("NotificationChannel");

export const ChannelWithSecretSchema = ChannelSchema.extend({
  secret: z.string().optional().openapi({
    description: "Webhook signing secret (whsec_...): present only in the answer that created or rotated it, never again",
  }),
}).openapi("NotificationChannelWithSecret");

export const CreateChannelBody = z
  .strictObject({
    type: z.enum(CHANNEL_TYPES),
    target: Target.optional(),
    events: EventList,
    enabled: z.boolean().default(true),
  })
  .openapi("CreateNotificationChannel");

export const UpdateChannelBody = z
  .strictObject({
    target: Target.optional(),
    events: EventList.optional(),
    enabled: z.boolean().optional(),
  })
  .openapi("UpdateNotificationChannel");

export const presentChannel = (row: Channel): z.infer<typeof ChannelSchema> => ({
  id: row.id,
  type: row.type,
  target: row.target,
  events: row.events,
  enabled: row.enabled,
  secretRotatedAt: row.secretRotatedAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
