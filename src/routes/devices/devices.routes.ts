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
  operationId: "listDevices",
  tags,
  summary: "The caller's devices, and the devices of networks whose group the caller administers",
  description: "Any signed-in user: their own devices, and every device of the networks whose group they administer (owner, admin).",
  request: { query: PageQuery.extend({ networkId: z.string().max(64).optional() }) },
  responses: { 200: jsonResponse(pageOf(DeviceSchema, "DevicePage"), "A page of devices"), ...errorResponses(401, 422) },
});

export const get = createRoute({
  method: "get",
  path: "/devices/{id}",
  operationId: "getDevice",
  tags,
  summary: "One device",
  description: "The device's owner, and owners and admins of its network's group; others get 404.",
  request: { params },
  responses: { 200: jsonResponse(DeviceSchema, "The device"), ...errorResponses(401, 404, 422) },
});

export const rename = createRoute({
  method: "patch",
  path: "/devices/{id}",
  operationId: "renameDevice",
  tags,
  summary: "Rename a device (its node and DNS name follow)",
  description:
    "The device's owner, and owners and admins of its network's group. The node's name (and so its DNS name) changes with it; 409 when another node of the network has that name.",
  request: { params, body: jsonBody(z.strictObject({ name: NodeName }).openapi("RenameDevice")) },
  responses: { 200: jsonResponse(DeviceSchema, "Renamed"), ...errorResponses(401, 404, 409, 413, 415, 422) },
});

export const remove = createRoute({
  method: "delete",
  path: "/devices/{id}",
  operationId: "deleteDevice",
  tags,
  summary: "Delete a device: its node and address are released and its credential stops working",
  description:
    "The device's owner, and owners and admins of its network's group. Its node leaves every peer's config and its credential is refused from now on.",
  request: { params },
  responses: { 204: noContent, ...errorResponses(401, 404, 422) },
});

export const getRouting = createRoute({
  method: "get",
  path: "/devices/{id}/routing-preferences",
  operationId: "getDeviceRoutingPreference",
  tags,
  summary: "Which routing policies apply to this device",
  description: "The device's owner, and owners and admins of its network's group.",
  request: { params },
  responses: { 200: jsonResponse(RoutingPreference, "The preference"), ...errorResponses(401, 404, 422) },
});

export const putRouting = createRoute({
  method: "put",
  path: "/devices/{id}/routing-preferences",
  operationId: "putDeviceRoutingPreference",
  tags,
  summary: "Apply all policies, none, or only the listed ones; the device's config and routingIntent follow",
  description:
    "The device's owner, and owners and admins of its network's group. mode all: every policy of the network; none: none; selected: only policyIds (each a policy of the device's network, else 400).",
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
