import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonResponse } from "../../lib/openapi";
import { pageOf } from "../../lib/pagination";
import { DeliveryQuery, DeliverySchema } from "./deliveries.schemas";

const tags = ["Notifications"];

export const list = createRoute({
  method: "get",
  path: "/notifications/deliveries",
  operationId: "listNotificationDeliveries",
  tags,
  summary: "Delivery state of your notifications: pending, delivered, failed, with attempts and errors",
  description: "Any signed-in user: deliveries to their own channels, newest first; filter by channel or state.",
  request: { query: DeliveryQuery },
  responses: { 200: jsonResponse(pageOf(DeliverySchema, "NotificationDeliveryPage"), "A page of deliveries"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/notifications/deliveries/{id}",
  operationId: "getNotificationDelivery",
  tags,
  summary: "One delivery",
  description: "The owner of the delivery's channel only; others get 404.",
  request: { params: IdParam("Delivery", "ndl") },
  responses: { 200: jsonResponse(DeliverySchema, "The delivery"), ...errorResponses(401, 404, 422) },
});

export const retry = createRoute({
  method: "post",
  path: "/notifications/deliveries/{id}/retry",
  operationId: "retryNotificationDelivery",
  tags,
  summary: "Send a delivered or failed delivery again, with a fresh retry schedule",
  description:
    "The owner of the delivery's channel only. " + "Answers after the first new attempt. 409 while the delivery is still pending.",
  request: { params: IdParam("Delivery", "ndl") },
  responses: { 200: jsonResponse(DeliverySchema, "The delivery, after the attempt"), ...errorResponses(401, 404, 409, 422) },
});
