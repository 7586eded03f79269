import { z } from "@hono/zod-openapi";
import type { devices } from "../db/schema";
import { Timestamp } from "../lib/openapi";
import { RoutingPreference } from "./nodes";

/** A managed-client device as the API shows it (client and devices routes). */
export const DeviceSchema = z
  .object({
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
  })
  .openapi("Device");

type Status = z.infer<typeof DeviceSchema>["status"];
export function presenceOf(lastSeenAt: string | null, offlineAfterSeconds: number, now = Date.now()): Status {
  if (!lastSeenAt) return "unknown";
  return now - Date.parse(lastSeenAt) <= offlineAfterSeconds * 1000 ? "online" : "offline";
}

export function presentDevice(
  device: typeof devices.$inferSelect,
  node: {
    name: string;
    address: string;
    publicKey: string;
    routingMode: "all" | "none" | "only";
    routingPolicyIds: string[];
    appliedRoutingRevision: number | null;
    lastSeenAt: string | null;
  },
  offlineAfterSeconds: number,
): z.infer<typeof DeviceSchema> {
  return {
    id: device.id,
    networkId: device.networkId,
    nodeId: device.nodeId,
    userId: device.userId,
    name: node.name,
    address: node.address,
    publicKey: node.publicKey,
    platform: device.platform,
    clientVersion: device.clientVersion,
    routing: { mode: node.routingMode, policyIds: node.routingPolicyIds },
    appliedRevision: node.appliedRoutingRevision,
    reportedEndpoint: device.reportedEndpoint,
    lastSeenAt: node.lastSeenAt,
    status: presenceOf(node.lastSeenAt, offlineAfterSeconds),
    createdAt: device.createdAt,
    updatedAt: device.updatedAt,
  };
}
