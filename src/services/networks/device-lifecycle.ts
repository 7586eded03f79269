import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { devices, networks } from "../../db/schema";
import { networkWriter } from "../../objects/network/client";
import { chunks } from "../../lib/chunks";
import { ApiError, conflict } from "../../lib/errors";
import type { Env } from "../../lib/env";
import { unwrap } from "../../lib/write-result";

/** Devices held only through the platform admin role: in networks of groups where the owner holds no device-holding role. */
export const ONLY_AS_PLATFORM_ADMIN = Symbol("devices held only through the platform admin role");

/** Which of a user's devices: all (undefined), those in one group's networks (its id), or ONLY_AS_PLATFORM_ADMIN. */
export type DeviceScope = string | typeof ONLY_AS_PLATFORM_ADMIN | undefined;

function inScope(scope: DeviceScope) {
  if (scope === undefined) return undefined;
  if (scope === ONLY_AS_PLATFORM_ADMIN) {
    return sql`not exists (select 1 from memberships m where m.group_id = ${networks.groupId} and m.user_id = ${devices.userId}
      and m.role in ('member', 'admin', 'owner'))`;
  }
  return eq(networks.groupId, scope);
}

/**
 * Takes a user's devices out of their networks (node, address, credential, observations) through each
 * network's writer, so every peer's next config drops them. Used when the user is deleted or disabled
 * (all networks), when they leave, are removed from or demoted to viewer in a group (that group's
 * networks) and when a platform admin becomes a user (networks they reached only as admin). Callers
 * check assertNoHopDevices first, before changing anything, and call this AFTER the change that ends
 * the access has committed: enrolments re-check that access in their own batch, so a device committed
 * before is listed here and one committing after is refused (services/live-authority.ts).
 */
export async function removeDevicesOf(env: Env, db: Db, userId: string, scope?: DeviceScope): Promise<number> {
  const owned = await db
    .select({ id: devices.id, networkId: devices.networkId })
    .from(devices)
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .where(and(eq(devices.userId, userId), inScope(scope)))
    .all();
  for (const device of owned) {
    await unwrap(networkWriter(env, device.networkId).removeDevice(device.networkId, device.id)).catch((error: unknown) => {
      // Removed meanwhile by someone else: the outcome is the same.
      if (!(error instanceof ApiError && error.code === "not_found")) throw error;
    });
  }
  return owned.length;
}

/**
 * A user's role in a group changed, or they joined it, and they keep their devices there: each network of
 * the group where they hold one re-reads whose those devices are (objects/network/operations/device-owners.ts), so `user:`
 * and `role:` selectors follow. Called after the change committed: an enrolment committed before is
 * found here, one committing after reads the new role in its own batch.
 */
export async function refreshDeviceOwners(env: Env, db: Db, userId: string, groupId: string): Promise<void> {
  const held = await db
    .selectDistinct({ networkId: devices.networkId })
    .from(devices)
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .where(and(eq(devices.userId, userId), eq(networks.groupId, groupId)))
    .all();
  for (const { networkId } of held) await refreshOwnerIn(env, networkId, userId);
}

/**
 * The directory's groups of these users changed: every network where one holds a device re-reads whose its
 * devices are, so `idp:` selectors follow as `role:` ones do. One read for up to 90 users (D1's bound parameters).
 */
export async function refreshOwnersOf(env: Env, db: Db, userIds: Iterable<string>): Promise<void> {
  for (const part of chunks([...new Set(userIds)], 90)) {
    const held = await db
      .selectDistinct({ networkId: devices.networkId, userId: devices.userId })
      .from(devices)
      .where(inArray(devices.userId, part))
      .all();
    for (const { networkId, userId } of held) if (userId) await refreshOwnerIn(env, networkId, userId);
  }
}

const refreshOwnerIn = (env: Env, networkId: string, userId: string) =>
  unwrap(networkWriter(env, networkId).refreshDeviceOwner(networkId, userId)).catch((error: unknown) => {
    // The network was deleted meanwhile: nothing to follow.
    if (!(error instanceof ApiError && error.code === "not_found")) throw error;
  });

/**
 * A user's device whose node is a gateway hop of a policy keeps other members' routes alive, and its
 * machine holds the node's private key: losing the user's access must not leave it a trusted peer, nor
 * silently break the routes. So the change that would end the access (disable, delete, leave) is refused
 * with 409 naming the policies, before anything is written; admins reroute first. Same for a demotion.
 */
export async function assertNoHopDevices(db: Db, userId: string, scope?: DeviceScope): Promise<void> {
  const hops = await db
    .select({ deviceId: devices.id, policyId: sql<string>`p.id` })
    .from(devices)
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .innerJoin(sql`routing_policies p`, sql`p.network_id = ${devices.networkId}`)
    .where(
      and(
        eq(devices.userId, userId),
        inScope(scope),
        sql`exists (select 1 from json_each(p.gateway_path) hop where hop.value = ${devices.nodeId})`,
      ),
    )
    .all();
  if (hops.length === 0) return;
  const policies = [...new Set(hops.map((hop) => hop.policyId))].join(", ");
  const owned = [...new Set(hops.map((hop) => hop.deviceId))].join(", ");
  throw conflict(`The user's device ${owned} is a gateway hop of routing policies ${policies}; change them first`);
}
