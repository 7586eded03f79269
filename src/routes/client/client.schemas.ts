import { z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import type { devices } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { NodeConfigSchema } from "../../lib/schemas/node-config";
import { PublicKey } from "../../lib/schemas/wireguard";
import { NodeName, NodeSchema, RoutingPreference } from "../nodes/nodes.schemas";

export const DeviceSchema = z.object({
  id: z.string().openapi({ example: "dev_..." }),
  networkId: z.string(),
  nodeId: z.string(),
  userId: z.string().nullable().openapi({ description: "The owner; null when enrolled with an enrolment key" }),
  name: z.string(),
  address: z.string(),
  publicKey: z.string(),
  platform: z.string(),
  clientVersion: z.string(),
  routing: RoutingPreference,
  appliedRevision: z.number().int().nullable(),
  reportedEndpoint: z.string().nullable(),
  lastSeenAt: Timestamp.nullable(),
  status: z.enum(["online", "offline", "unknown"]).openapi({ description: "By the last heartbeat's age (OFFLINE_AFTER_SECONDS)" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi("Device");

export const EnrolBody = z.strictObject({
  networkId: z.string().min(1).max(64).optional().openapi({ description: "Required with a user token; implied by an enrolment key" }),
  name: NodeName,
  publicKey: PublicKey,
  platform: displayName({ max: 64 }).default(""),
  clientVersion: displayName({ max: 64 }).default(""),
  enrolmentKey: z.string().min(1).max(128).optional().openapi({ description: "Headless enrolment instead of a user token" }),
}).openapi("EnrolDevice");

export const EnrolmentSchema = z.object({
  device: DeviceSchema,
  node: NodeSchema,
  config: NodeConfigSchema,
  deviceToken: z.string().openapi({ description: "The device's own bearer credential (dvc_…), shown once; keep it secret" }),
}).openapi("DeviceEnrolment");

export const DeviceConfigSchema = z.object({
  deviceId: z.string(),
  config: NodeConfigSchema,
}).openapi("DeviceConfig");

export const HeartbeatAckSchema = z.object({
  desiredRevision: z.number().int(),
  configChanged: z.boolean().openapi({ description: "True when the device should fetch its config again" }),
}).openapi("HeartbeatAck");

type Status = z.infer<typeof DeviceSchema>["status"];
export function presenceOf(lastSeenAt: string | null, offlineAfterSeconds: number, now = Date.now()): Status {
  if (!lastSeenAt) return "unknown";
  return now - Date.parse(lastSeenAt) <= offlineAfterSeconds * 1000 ? "online" : "offline";
}

export function presentDevice(
  device: typeof devices.$inferSelect,
  node: { name: string; address: string; publicKey: string; routingMode: "all" | "none" | "only"; routingPolicyIds: string[]; appliedRoutingRevision: number | null; lastSeenAt: string | null },
  offlineAfterSeconds: number,
): z.infer<typeof DeviceSchema> {
  return {
    id: device.id, networkId: device.networkId, nodeId: device.nodeId, userId: device.userId, name: node.name,
    address: node.address, publicKey: node.publicKey, platform: device.platform, clientVersion: device.clientVersion,
    routing: { mode: node.routingMode, policyIds: node.routingPolicyIds }, appliedRevision: node.appliedRoutingRevision,
    reportedEndpoint: device.reportedEndpoint, lastSeenAt: node.lastSeenAt,
    status: presenceOf(node.lastSeenAt, offlineAfterSeconds), createdAt: device.createdAt, updatedAt: device.updatedAt,
  };
}
