import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { devices, memberships, networks, nodes } from "../db/schema";
import { notFound } from "../lib/errors";
import type { DeviceAuth, UserAuth } from "../lib/types";
import { roleAllows } from "./access";

/**
 * A device is visible to itself (its credential), to its owner, and to admins/owners of its network's
 * group (and platform admins). Everyone else gets 404: a device is personal, even to fellow members.
 */
export async function deviceAccess(db: Db, actor: { user?: UserAuth; device?: DeviceAuth }, deviceId: string) {
  const userId = actor.user?.userId ?? "";
  const row = await db.select({ device: devices, node: nodes, network: networks, role: memberships.role })
    .from(devices)
    .innerJoin(nodes, eq(nodes.id, devices.nodeId))
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .leftJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, userId)))
    .where(eq(devices.id, deviceId))
    .get();
  if (!row) throw notFound("Device");
  const allowed = actor.device
    ? actor.device.deviceId === row.device.id
    : !!actor.user && (row.device.userId === actor.user.userId || actor.user.platformRole === "admin"
      || (row.role !== null && roleAllows(row.role, "manage")));
  if (!allowed) throw notFound("Device");
  return { device: row.device, node: row.node, network: row.network };
}
