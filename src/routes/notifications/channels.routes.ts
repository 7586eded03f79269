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
  tags,
  summary: "Your notification channels",
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
  tags,
  summary: "Add an email or webhook channel; a webhook's signing secret is in this answer only",
  description:
    "400 when a webhook URL is refused (https only; no private, link-local or metadata addresses) or an email is not yours; 409 past 10 channels.",
  request: { body: jsonBody(CreateChannelBody) },
  responses: { 201: jsonResponse(ChannelWithSecretSchema, "Created"), ...writeErrors },
});

export const get = createRoute({
  method: "get",
  path: "/notifications/channels/{id}",
  tags,
  summary: "One of your channels",
  request: { params: channelParam },
  responses: { 200: jsonResponse(ChannelSchema, "The channel"), ...errorResponses(401, 404) },
});

export const update = createRoute({
  method: "patch",
  path: "/notifications/channels/{id}",
  tags,
  summary: "Change a channel's target, events or enabled flag",
  request: { params: channelParam, body: jsonBody(UpdateChannelBody) },
  responses: { 200: jsonResponse(ChannelSchema, "Updated"), ...writeErrors },
});

export const remove = createRoute({
  method: "delete",
  path: "/notifications/channels/{id}",
  tags,
  summary: "Delete a channel and its delivery history",
  request: { params: channelParam },
  responses: { 204: noContent, ...errorResponses(401, 404) },
});

export const rotateSecret = createRoute({
  method: "post",
  path: "/notifications/channels/{id}/rotate-secret",
  tags,
  summary: "Issue a new webhook signing secret (the old one stops at once)",
  request: { params: channelParam },
  responses: { 200: jsonResponse(ChannelWithSecretSchema, "The channel with its new secret"), ...errorResponses(400, 401, 404) },
});

export const test = createRoute({
  method: "post",
  path: "/notifications/channels/{id}/test",
  tags,
  summary: "Send a notification.test event to this channel now (also when disabled)",
  description: "Answers after the first attempt: status delivered, or pending with lastError and the retry time.",
  request: { params: channelParam },
  responses: { 201: jsonResponse(DeliverySchema, "The delivery, after its first attempt"), ...errorResponses(401, 404) },
});
