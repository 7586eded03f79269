import { and, eq, inArray, isNull, ne, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { devices, type GroupRole } from "../../db/schema";
import { notFound } from "../../lib/errors";
import type { UserPrincipal } from "../../lib/types";
import { authorizeNode, roleAllows } from "../authorization";

/**
 * What a member may read of another member's device node (docs/security.md, "Device nodes").
 *
 * Every reader of a network (viewer and up) sees that a device node exists and what every peer's config
 * already carries about it: id, name, address, public key, endpoint, roles, deviceId. What the device's owner
 * chose or what its heartbeats report is the owner's: its routing choice, last-seen time, config (peers,
 * routingIntent), place in the runtime status's lagging/unreported lists, the tunnels it reports or that
 * lead to it, and the presence and drift notifications about it. That detail is read by the device's owner
 * (while they hold devices there: member and up), the group's owners and admins, and platform admins,
 * exactly those `authorizeDevice` lets reach the device itself. Others get the redacted entry in lists and 404
 * for the detail on its own (GET /nodes/:id/config), as for GET /devices/:id.
 */
export function seesNodeDetail(
  auth: UserPrincipal,
  role: GroupRole | null | undefined,
  node: { deviceId: string | null },
  deviceOwnerId: string | null | undefined,
): boolean {
  if (node.deviceId === null || auth.platformRole === "admin") return true;
  if (!role) return false;
  return roleAllows(role, "manage") || (deviceOwnerId === auth.userId && roleAllows(role, "enrol"));
}

/**
 * The same rule as a SQL condition over one row, for list queries that join the caller's membership:
 * `device` is the node's device row (left-joined by node id; its id is null for a node that is no device).
 */
export function nodeDetailVisible(
  auth: UserPrincipal,
  role: SQLiteColumn,
  device: { id: SQLiteColumn; userId: SQLiteColumn },
): SQL | undefined {
  if (auth.platformRole === "admin") return undefined;
  return or(isNull(device.id), inArray(role, ["admin", "owner"]), ownedDevice(auth, role, device));
}

/** The caller owns this device and still holds devices in its group (not a viewer). */
export const ownedDevice = (auth: UserPrincipal, role: SQLiteColumn, device: { userId: SQLiteColumn }) =>
  and(eq(device.userId, auth.userId), ne(role, "viewer"));

/** A node as a reader of its network sees it: `detail` false for another member's device node. */
export async function authorizeNodeRead(db: Db, auth: UserPrincipal, nodeId: string) {
  const access = await authorizeNode(db, auth, nodeId, "read");
  return { ...access, detail: seesNodeDetail(auth, access.role, access.node, access.deviceOwnerId) };
}

/** A node's detail (its config): another member's device node answers 404, like GET /devices/:id. */
export async function authorizeNodeDetail(db: Db, auth: UserPrincipal, nodeId: string) {
  const access = await authorizeNodeRead(db, auth, nodeId);
  if (!access.detail) throw notFound("Node config");
  return access;
}

/**
 * Which device peers a reader of a node's per-peer detail (GET /nodes/:id/paths: where the node heard each
 * peer from, its last handshake) sees, as GET /tunnels decides: null, every peer (a node that is the reader's
 * own device, a group owner or admin, a platform admin); else the reader's own device nodes in the network
 * (none for a viewer). The rest are another member's devices: their address and activity are their owner's.
 */
export async function devicePeersSeen(db: Db, auth: UserPrincipal, access: Awaited<ReturnType<typeof authorizeNodeDetail>>) {
  const { node, role } = access;
  if (auth.platformRole === "admin" || node.deviceId !== null || (role && roleAllows(role, "manage"))) return null;
  if (!role || !roleAllows(role, "enrol")) return [];
  const own = await db
    .select({ nodeId: devices.nodeId })
    .from(devices)
    .where(and(eq(devices.networkId, node.networkId), eq(devices.userId, auth.userId)))
    .all();
  return own.map((row) => row.nodeId);
}
