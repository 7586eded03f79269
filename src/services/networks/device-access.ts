import { and, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { devices, memberships, networks, nodes, users } from "../../db/schema";
import { notFound, unauthorized } from "../../lib/errors";
import type { DeviceAuth, UserAuth } from "../../lib/types";
import { roleAllows } from "../access";

const owner = alias(users, "owner");
const ownerMembership = alias(memberships, "owner_membership");

/**
 * A device is visible to itself (its credential), to its owner, and to admins/owners of its network's
 * group (and platform admins). Everyone else gets 404: a device is personal, even to fellow members.
 * A device whose owner was disabled, left the group or became a viewer no longer acts for itself, and
 * its owner no longer reaches it through it (its removal runs then too; this check holds even if that
 * removal failed half-way).
 */
export async function deviceAccess(db: Db, actor: { user?: UserAuth; device?: DeviceAuth }, deviceId: string) {
  const userId = actor.user?.userId ?? "";
  const row = await db
    .select({
      device: devices,
      node: nodes,
      network: networks,
      role: memberships.role,
      ownerDisabledAt: owner.disabledAt,
      ownerRole: owner.platformRole,
      ownerMember: ownerMembership.role,
    })
    .from(devices)
    .innerJoin(nodes, eq(nodes.id, devices.nodeId))
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .leftJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, userId)))
    .leftJoin(owner, eq(owner.id, devices.userId))
    .leftJoin(ownerMembership, and(eq(ownerMembership.groupId, networks.groupId), eq(ownerMembership.userId, devices.userId)))
    .where(eq(devices.id, deviceId))
    .get();
  if (!row) throw notFound("Device");
  // Viewers hold no devices: a demoted owner has lost them exactly as a removed one has.
  const ownerHolds =
    row.ownerDisabledAt === null && (row.ownerRole === "admin" || (row.ownerMember !== null && roleAllows(row.ownerMember, "enrol")));
  if (actor.device) {
    if (actor.device.deviceId !== row.device.id) throw notFound("Device");
    if (row.device.userId !== null && !ownerHolds) throw unauthorized("The device's owner no longer has access to this network");
    return { device: row.device, node: row.node, network: row.network };
  }
  const allowed =
    !!actor.user &&
    ((row.device.userId === actor.user.userId && ownerHolds) ||
      actor.user.platformRole === "admin" ||
      (row.role !== null && roleAllows(row.role, "manage")));
  if (!allowed) throw notFound("Device");
  return { device: row.device, node: row.node, network: row.network };
}
