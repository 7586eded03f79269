import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { ChannelSchema, ChannelWithSecretSchema, CreateChannelBody, UpdateChannelBody } from "./channels.schemas";
import { DeliverySchema } from "./deliveries.schemas";

const tags = ["Notifications"];
const channelParam = IdParam("Notification channel", "nch");
const writeErrors = errorResponses(400, 401, 404, 409, 413, 415, 422);

export const list = createRoute({
  method: "get",
  path: "/notifications/channels",
  operationId: "listNotificationChannels",
  tags,
  summary: "Your notification channels",
  description: "Any signed-in user: their own channels (at most 10, so one page). Webhook secrets are never shown again.",
  responses: {
    200: jsonResponse(
      z.object({ items: z.array(ChannelSchema), nextCursor: z.null() }).openapi("NotificationChannelList"),
      "All of them (at most 10)",
    ),
    ...errorResponses(401),
  },
});

export const create = createRoute({
  method: "post",
  path: "/notifications/channels",
  operationId: "createNotificationChannel",
  tags,
  summary: "Add an email or webhook channel; a webhook's signing secret is in this answer only",
  description:
    "Any signed-in user, for themselves. An email channel must use the account's own address. " +
    "400 when a webhook URL is refused (https only; no private, link-local or metadata addresses) or an email is not yours; 409 past 10 channels.",
  request: { body: jsonBody(CreateChannelBody) },
  responses: { 201: jsonResponse(ChannelWithSecretSchema, "Created"), ...writeErrors },
});

export const get = createRoute({
  method: "get",
  path: "/notifications/channels/{id}",
  operationId: "getNotificationChannel",
  tags,
  summary: "One of your channels",
  description: "The channel's owner only; other users get 404.",
  request: { params: channelParam },
  responses: { 200: jsonResponse(ChannelSchema, "The channel"), ...errorResponses(401, 404, 422) },
});

export const update = createRoute({
  method: "patch",
  path: "/notifications/channels/{id}",
  operationId: "updateNotificationChannel",
  tags,
  summary: "Change a channel's target, events or enabled flag",
  description: "The channel's owner only; same rules as creation.",
  request: { params: channelParam, body: jsonBody(UpdateChannelBody) },
  responses: { 200: jsonResponse(ChannelSchema, "Updated"), ...writeErrors },
});

export const remove = createRoute({
  method: "delete",
  path: "/notifications/channels/{id}",
  operationId: "deleteNotificationChannel",
  tags,
  summary: "Delete a channel and its delivery history",
  description: "The channel's owner only. Its delivery history goes with it.",
  request: { params: channelParam },
  responses: { 204: noContent, ...errorResponses(401, 404, 422) },
});

export const rotateSecret = createRoute({
  method: "post",
  path: "/notifications/channels/{id}/rotate-secret",
  operationId: "rotateNotificationChannelSecret",
  tags,
  summary: "Issue a new webhook signing secret (the old one stops at once)",
  description: "The channel's owner only; webhook channels only (400 for email). The new secret is shown only in this answer.",
  request: { params: channelParam },
  responses: { 200: jsonResponse(ChannelWithSecretSchema, "The channel with its new secret"), ...errorResponses(400, 401, 404, 422) },
});

export const test = createRoute({
  method: "post",
  path: "/notifications/channels/{id}/test",
  operationId: "testNotificationChannel",
  tags,
  summary: "Send a notification.test event to this channel now (also when disabled)",
  description:
    "The channel's owner only. " + "Answers after the first attempt: status delivered, or pending with lastError and the retry time.",
  request: { params: channelParam },
  responses: { 201: jsonResponse(DeliverySchema, "The delivery, after its first attempt"), ...errorResponses(401, 404, 422) },
});
