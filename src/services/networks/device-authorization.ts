import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { preparedPer } from "../../db/prepared";
import { devices, memberships, networks, nodes, users } from "../../db/schema";
import { notFound, unauthorized } from "../../lib/errors";
import type { DevicePrincipal, DeviceStanding, UserPrincipal } from "../../lib/types";
import { roleAllows } from "../authorization";

const owner = alias(users, "owner");
const ownerMembership = alias(memberships, "owner_membership");

/** Who acts on a device: the device itself (its credential) or a user. */
export type DeviceActor = DevicePrincipal | UserPrincipal;

type Lookup = { deviceId: string } | { credentialHash: string };

/** The device lookup as one statement, by id or by credential hash, with the caller's id as a placeholder. */
function deviceQuery(db: Db, by: "id" | "credential") {
  return db
    .select({
      device: devices,
      node: nodes,
      network: networks,
      callerRole: memberships.role,
      ownerDisabledAt: owner.disabledAt,
      ownerRole: owner.platformRole,
      ownerMember: ownerMembership.role,
    })
    .from(devices)
    .innerJoin(nodes, eq(nodes.id, devices.nodeId))
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .leftJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, sql.placeholder("callerId"))))
    .leftJoin(owner, eq(owner.id, devices.userId))
    .leftJoin(ownerMembership, and(eq(ownerMembership.groupId, networks.groupId), eq(ownerMembership.userId, devices.userId)))
    .where(by === "id" ? eq(devices.id, sql.placeholder("key")) : eq(devices.credentialHash, sql.placeholder("key")))
    .prepare();
}

/** Building this six-table select anew was 30% of a heartbeat's CPU (bench/cpu-profile.ts): it is prepared once. */
const byId = preparedPer((db) => deviceQuery(db, "id"));
const byCredential = preparedPer((db) => deviceQuery(db, "credential"));

/**
 * One statement: the device (by id, or by its credential's hash), its node and network, whether its owner
 * still holds devices in that network, and the role `callerId` (a user) has in the network's group.
 */
export async function readDevice(db: Db, lookup: Lookup, callerId = "") {
  const row =
    "deviceId" in lookup
      ? await byId(db).get({ key: lookup.deviceId, callerId })
      : await byCredential(db).get({ key: lookup.credentialHash, callerId });
  if (!row) return null;
  // Viewers hold no devices: a demoted owner has lost them exactly as a removed one has. Headless devices have no owner.
  const ownerHolds =
    row.device.userId === null ||
    (row.ownerDisabledAt === null && (row.ownerRole === "admin" || (row.ownerMember !== null && roleAllows(row.ownerMember, "enrol"))));
  const standing: DeviceStanding = { device: row.device, node: row.node, network: row.network, ownerHolds };
  return { ...standing, callerRole: row.callerRole };
}

/** The device acting for itself: only on itself, and only while its owner still holds devices there. */
function asItself(standing: DeviceStanding | null, deviceId: string) {
  if (!standing || standing.device.id !== deviceId) throw notFound("Device");
  if (!standing.ownerHolds) throw unauthorized("The device's owner no longer has access to this network");
  return { device: standing.device, node: standing.node, network: standing.network };
}

/** Read again now (after a config was read, after enrolment): the device still exists and still stands. */
export const deviceStillStands = async (db: Db, deviceId: string) => asItself(await readDevice(db, { deviceId }), deviceId);

/**
 * A device is visible to itself (its credential), to its owner, and to admins/owners of its network's
 * group (and platform admins). Everyone else gets 404: a device is personal, even to fellow members.
 * A device whose owner was disabled, left the group or became a viewer no longer acts for itself, and
 * its owner no longer reaches it through it (its removal runs then too; this check holds even if that
 * removal failed half-way). A device's own standing was read with its credential (middleware/device-auth.ts),
 * so it costs no statement here.
 */
export async function authorizeDevice(db: Db, actor: DeviceActor, deviceId: string) {
  if (actor.kind === "device") return asItself(actor.standing, deviceId);
  const row = await readDevice(db, { deviceId }, actor.userId);
  if (!row) throw notFound("Device");
  const allowed =
    (row.device.userId === actor.userId && row.ownerHolds) ||
    actor.platformRole === "admin" ||
    (row.callerRole !== null && roleAllows(row.callerRole, "manage"));
  if (!allowed) throw notFound("Device");
  return { device: row.device, node: row.node, network: row.network };
}
