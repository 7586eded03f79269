import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { devices, networks } from "../db/schema";
import { networkWriter } from "../durable-objects/writer-client";
import { ApiError } from "../lib/errors";
import type { Env } from "../lib/env";

/**
 * Takes a user's devices out of their networks (node, address, credential, observations) through each
 * network's writer, so every peer's next config drops them. Used when the user is deleted or disabled
 * (all networks) and when they leave or are removed from a group (that group's networks). A device node
 * that is a policy hop keeps serving, detached from the user (see removeDevice).
 */
export async function removeDevicesOf(env: Env, db: Db, userId: string, groupId?: string): Promise<number> {
  const owned = await db.select({ id: devices.id, networkId: devices.networkId }).from(devices)
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .where(and(eq(devices.userId, userId), groupId ? eq(networks.groupId, groupId) : undefined))
    .all();
  for (const device of owned) {
    await networkWriter(env, device.networkId).removeDevice(device.id, true).catch((error: unknown) => {
      // Removed meanwhile by someone else: the outcome is the same.
      if (!(error instanceof ApiError && error.code === "not_found")) throw error;
    });
  }
  return owned.length;
}

