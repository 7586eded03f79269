import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, jsonResponse } from "../../lib/openapi";
import { signedIn } from "../../middleware/auth";
import { ChannelSchema } from "./channels.schemas";

export const NotificationSettingsSchema = z.object({
  channels: z.array(ChannelSchema),
  eventTypes: z.array(z.object({ type: z.string(), description: z.string() })),
  detection: z.object({
    offlineAfterSeconds: z.number().int(),
    driftAfterSeconds: z.number().int(),
    intervalSeconds: z.number().int().openapi({ description: "How often detection and retries run (the Cron Trigger)" }),
  }),
  retries: z.object({ delaysSeconds: z.array(z.number().int()), maxAttempts: z.number().int() }),
}).openapi("NotificationSettings");

export const getSettings = createRoute({
  method: "get", path: "/notifications/settings", tags: ["Notifications"], ...signedIn,
  summary: "Your channels, the events they can subscribe to, and the platform's detection and retry settings",
  responses: { 200: jsonResponse(NotificationSettingsSchema, "The settings"), ...errorResponses(401) },
});
