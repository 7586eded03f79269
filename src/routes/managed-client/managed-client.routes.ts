import { createRoute } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, optionalJsonBody } from "../../lib/openapi";
import { HeartbeatBody } from "../../wire/heartbeat";
import {
  ConfigQuery,
  ConfigRequestBody,
  DeviceConfigSchema,
  EnrolBody,
  EnrolmentSchema,
  HeartbeatAckSchema,
} from "./managed-client.schemas";

const tags = ["Managed client"];
const params = IdParam("Device", "dev");

export const enrol = createRoute({
  method: "post",
  path: "/client/devices",
  operationId: "enrolDevice",
  tags,
  summary: "Enrol a device: with a user token (member or above) or a headless enrolment key",
  description:
    "With a user's access token (userAuth): the user must be a member (or above) of the network's group. Without one: the body carries an enrolment key (ek_…, POST /networks/{id}/enrolment-keys), which must be unexpired, unrevoked and under its usage limit. The device becomes a node of the network with a server-allocated address. The answer carries its first config and the device credential (deviceAuth), shown only here.",
  request: { body: jsonBody(EnrolBody) },
  responses: { 201: jsonResponse(EnrolmentSchema, "Enrolled"), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422) },
});

export const config = createRoute({
  method: "post",
  path: "/client/devices/{id}/config",
  operationId: "getDeviceConfig",
  tags,
  summary: "The device's current configuration (with routingIntent and the routing revision), or a delta from the one it holds",
  description:
    "The device itself (deviceAuth), or its owner or a group owner or admin (userAuth). With sinceRevision (the routingRevision the device holds) the answer is a delta when the server can compute one, and `wait` long-polls for the next revision. POST: the body (optional) carries what the device holds.",
  request: { params, query: ConfigQuery, body: optionalJsonBody(ConfigRequestBody) },
  responses: { 200: jsonResponse(DeviceConfigSchema, "The configuration"), ...errorResponses(400, 401, 403, 404, 413, 415, 422, 503) },
});

export const heartbeat = createRoute({
  method: "post",
  path: "/client/devices/{id}/heartbeat",
  operationId: "sendDeviceHeartbeat",
  tags,
  summary: "Report liveness, the applied revision and per-peer counters",
  description:
    "The device itself (deviceAuth), or its owner or a group owner or admin (userAuth). Updates lastSeenAt, the applied revision and the tunnel counters GET /tunnels shows; the answer says whether a newer config is waiting.",
  request: { params, body: jsonBody(HeartbeatBody) },
  responses: { 200: jsonResponse(HeartbeatAckSchema, "Acknowledged"), ...errorResponses(400, 401, 403, 404, 413, 415, 422, 503) },
});
