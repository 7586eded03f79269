import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, IdParam, jsonBody, jsonResponse, noContent } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { DeviceSchema } from "../../schemas/devices";
import { NodeName, RoutingPreference } from "../../schemas/nodes";

const tags = ["Devices"];
const params = IdParam("Device", "dev");

export const list = createRoute({
  method: "get",
  path: "/devices",
  tags,
  summary: "The caller's devices, and the devices of networks whose group the caller administers",
  request: { query: PageQuery.extend({ networkId: z.string().max(64).optional() }) },
  responses: { 200: jsonResponse(pageOf(DeviceSchema, "DevicePage"), "A page of devices"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/devices/{id}",
  tags,
  summary: "One device",
  request: { params },
  responses: { 200: jsonResponse(DeviceSchema, "The device"), ...errorResponses(401, 404) },
});

export const rename = createRoute({
  method: "patch",
  path: "/devices/{id}",
  tags,
  summary: "Rename a device (its node and DNS name follow)",
  request: { params, body: jsonBody(z.strictObject({ name: NodeName }).openapi("RenameDevice")) },
  responses: { 200: jsonResponse(DeviceSchema, "Renamed"), ...errorResponses(401, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/devices/{id}",
  tags,
  summary: "Delete a device: its node and address are released and its credential stops working",
  request: { params },
  responses: { 204: noContent, ...errorResponses(401, 404) },
});

export const getRouting = createRoute({
  method: "get",
  path: "/devices/{id}/routing-preferences",
  tags,
  summary: "Which routing policies apply to this device",
  request: { params },
  responses: { 200: jsonResponse(RoutingPreference, "The preference"), ...errorResponses(401, 404) },
});

export const putRouting = createRoute({
  method: "put",
  path: "/devices/{id}/routing-preferences",
  tags,
  summary: "Apply all policies, none, or only the listed ones; the device's config and routingIntent follow",
  request: {
    params,
    body: jsonBody(
      z
        .strictObject({
          mode: RoutingPreference.shape.mode,
          policyIds: RoutingPreference.shape.policyIds.default([]),
        })
        .openapi("RoutingPreferenceInput"),
    ),
  },
  responses: { 200: jsonResponse(RoutingPreference, "Updated"), ...errorResponses(400, 401, 404, 413, 415, 422) },
});
