import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devices, networks } from "../../../db/schema";
import { networkWriter } from "../writer";
import { ApiError, conflict } from "../../../lib/errors";
import type { Env } from "../../../lib/env";

/**
 * Takes a user's devices out of their networks (node, address, credential, observations) through each
 * network's writer, so every peer's next config drops them. Used when the user is deleted or disabled
 * (all networks) and when they leave or are removed from a group (that group's networks). Callers check
 * assertNoHopDevices first, before changing anything.
 */
export async function removeDevicesOf(env: Env, db: Db, userId: string, groupId?: string): Promise<number> {
  const owned = await db.select({ id: devices.id, networkId: devices.networkId }).from(devices)
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .where(and(eq(devices.userId, userId), groupId ? eq(networks.groupId, groupId) : undefined))
    .all();
  for (const device of owned) {
    await networkWriter(env, device.networkId).removeDevice(device.id).catch((error: unknown) => {
      // Removed meanwhile by someone else: the outcome is the same.
      if (!(error instanceof ApiError && error.code === "not_found")) throw error;
    });
  }
  return owned.length;
}


/**
 * A user's device whose node is a gateway hop of a policy keeps other members' routes alive, and its
 * machine holds the node's private key: losing the user's access must not leave it a trusted peer, nor
 * silently break the routes. So the change that would end the access (disable, delete, leave) is refused
 * with 409 naming the policies, before anything is written; admins reroute first.
 */
export async function assertNoHopDevices(db: Db, userId: string, groupId?: string): Promise<void> {
  const hops = await db.select({ deviceId: devices.id, policyId: sql<string>`p.id` }).from(devices)
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .innerJoin(sql`routing_policies p`, sql`p.network_id = ${devices.networkId}`)
    .where(and(eq(devices.userId, userId), groupId ? eq(networks.groupId, groupId) : undefined,
      sql`exists (select 1 from json_each(p.gateway_path) hop where hop.value = ${devices.nodeId})`))
    .all();
  if (hops.length === 0) return;
  const policies = [...new Set(hops.map((hop) => hop.policyId))].join(", ");
  const owned = [...new Set(hops.map((hop) => hop.deviceId))].join(", ");
  throw conflict(`The user's device ${owned} is a gateway hop of routing policies ${policies}; change them first`);
}
