import { z } from "@hono/zod-openapi";
import { ChannelSchema } from "./channels.schemas";

export const NotificationSettingsSchema = z
  .object({
    channels: z.array(ChannelSchema),
    eventTypes: z.array(z.object({ type: z.string(), description: z.string() })),
    detection: z.object({
      offlineAfterSeconds: z.number().int(),
      driftAfterSeconds: z.number().int(),
      intervalSeconds: z.number().int().openapi({ description: "How often detection and retries run (the Cron Trigger)" }),
    }),
    retries: z.object({ delaysSeconds: z.array(z.number().int()), maxAttempts: z.number().int() }),
  })
  .openapi("NotificationSettings");
