import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { errorResponses, IdParam, jsonBody, jsonResponse, optionalJsonBody, SECURITY } from "../../lib/openapi";
import type { AppEnv } from "../../lib/types";
import { optionalUser, requireUserOrDevice } from "../../middleware/client-auth";
import { HeartbeatBody } from "../../schemas/heartbeat";
import { ConfigQuery, ConfigRequestBody, DeviceConfigSchema, EnrolBody, EnrolmentSchema, HeartbeatAckSchema } from "./client.schemas";

const tags = ["Managed client"];
const deviceOrUser = {
  middleware: [requireUserOrDevice] as MiddlewareHandler<AppEnv>[],
  security: SECURITY.deviceOrUser,
};
const params = IdParam("Device", "dev");

export const enrol = createRoute({
  method: "post",
  path: "/client/devices",
  tags,
  middleware: [optionalUser] as MiddlewareHandler<AppEnv>[],
  security: SECURITY.optionalUser,
  summary: "Enrol a device: with a user token (member or above) or a headless enrolment key",
  description: "The device becomes a node of the network. Returns its first config and the device credential.",
  request: { body: jsonBody(EnrolBody) },
  responses: { 201: jsonResponse(EnrolmentSchema, "Enrolled"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});

export const config = createRoute({
  method: "post",
  path: "/client/devices/{id}/config",
  tags,
  ...deviceOrUser,
  summary: "The device's current configuration (with routingIntent and the routing revision), or a delta from the one it holds",
  request: { params, query: ConfigQuery, body: optionalJsonBody(ConfigRequestBody) },
  responses: { 200: jsonResponse(DeviceConfigSchema, "The configuration"), ...errorResponses(400, 401, 403, 404, 413, 415, 422) },
});

export const heartbeat = createRoute({
  method: "post",
  path: "/client/devices/{id}/heartbeat",
  tags,
  ...deviceOrUser,
  summary: "Report liveness, the applied revision and per-peer counters",
  request: { params, body: jsonBody(HeartbeatBody) },
  responses: { 200: jsonResponse(HeartbeatAckSchema, "Acknowledged"), ...errorResponses(400, 401, 403, 404, 413, 415, 422) },
});
