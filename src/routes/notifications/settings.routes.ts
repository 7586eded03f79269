import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonResponse } from "../../lib/openapi";
import { NotificationSettingsSchema } from "./settings.schemas";

export const getSettings = createRoute({
  method: "get",
  path: "/notifications/settings",
  operationId: "getNotificationSettings",
  tags: ["Notifications"],
  summary: "Your channels, the events they can subscribe to, and the platform's detection and retry settings",
  description:
    "Any signed-in user: their channels, the event types a channel may subscribe to, and the platform's read-only detection and retry settings.",
  responses: { 200: jsonResponse(NotificationSettingsSchema, "The settings"), ...errorResponses(401) },
});
