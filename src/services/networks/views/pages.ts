import { and, asc, eq, inArray, or } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devices, dnsRecords, enrolmentKeys, memberships, networks, nodes, routingPolicies } from "../../../db/schema";
import { afterCursor } from "../../../lib/pagination";
import type { UserPrincipal } from "../../../lib/types";
import { seesNodeDetail } from "../device-node-privacy";

/**
 * Paged reads of the network domain: one query each, scoped to what the caller may see (platform admins
 * see everything; others see the groups they are members of). Each returns limit + 1 rows in (createdAt,
 * id) order for `toPage`. Reads go straight to D1: only writes pass through the network's writer.
 */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

const memberOf = (auth: UserPrincipal) => and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId));

export async function listNetworks(db: Db, auth: UserPrincipal, page: PageRequest, groupId?: string) {
  const filter = and(groupId ? eq(networks.groupId, groupId) : undefined, afterCursor(networks, page.cursor));
  const order = [asc(networks.createdAt), asc(networks.id)];
  if (auth.platformRole === "admin")
    return db
      .select()
      .from(networks)
      .where(filter)
      .orderBy(...order)
      .limit(page.limit + 1)
      .all();
  const rows = await db
    .select({ network: networks })
    .from(networks)
    .innerJoin(memberships, memberOf(auth))
    .where(filter)
    .orderBy(...order)
    .limit(page.limit + 1)
    .all();
  return rows.map((row) => row.network);
}

/** Each node with `detail`: false for another member's device node, which lists redacted (device-node-privacy.ts). */
export async function listNodes(db: Db, auth: UserPrincipal, page: PageRequest, networkId?: string) {
  const filter = and(networkId ? eq(nodes.networkId, networkId) : undefined, afterCursor(nodes, page.cursor));
  const order = [asc(nodes.createdAt), asc(nodes.id)];
  if (auth.platformRole === "admin") {
    const all = await db
      .select()
      .from(nodes)
      .where(filter)
      .orderBy(...order)
      .limit(page.limit + 1)
      .all();
    return all.map((node) => ({ ...node, detail: true }));
  }
  const rows = await db
    .select({ node: nodes, role: memberships.role, deviceOwnerId: devices.userId })
    .from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId))
    .innerJoin(memberships, memberOf(auth))
    .leftJoin(devices, eq(devices.nodeId, nodes.id))
    .where(filter)
    .orderBy(...order)
    .limit(page.limit + 1)
    .all();
  return rows.map((row) => ({ ...row.node, detail: seesNodeDetail(auth, row.role, row.node, row.deviceOwnerId) }));
}

/** The caller's access to the network is checked before: these list one network's own rows. */
export const listPolicies = (db: Db, networkId: string, page: PageRequest) =>
  db
    .select()
    .from(routingPolicies)
    .where(and(eq(routingPolicies.networkId, networkId), afterCursor(routingPolicies, page.cursor)))
    .orderBy(asc(routingPolicies.createdAt), asc(routingPolicies.id))
    .limit(page.limit + 1)
    .all();

export const listDnsRecords = (db: Db, networkId: string, page: PageRequest) =>
  db
    .select()
    .from(dnsRecords)
    .where(and(eq(dnsRecords.networkId, networkId), afterCursor(dnsRecords, page.cursor)))
    .orderBy(asc(dnsRecords.createdAt), asc(dnsRecords.id))
    .limit(page.limit + 1)
    .all();

export const listEnrolmentKeys = (db: Db, networkId: string, page: PageRequest) =>
  db
    .select()
    .from(enrolmentKeys)
    .where(and(eq(enrolmentKeys.networkId, networkId), afterCursor(enrolmentKeys, page.cursor)))
    .orderBy(asc(enrolmentKeys.createdAt), asc(enrolmentKeys.id))
    .limit(page.limit + 1)
    .all();

/** A device is personal: its owner sees it, and so do admins and owners of its network's group. */
export async function listDevices(db: Db, auth: UserPrincipal, page: PageRequest, networkId?: string) {
  const visible =
    auth.platformRole === "admin" ? undefined : or(eq(devices.userId, auth.userId), inArray(memberships.role, ["admin", "owner"]));
  const rows = await db
    .select({ device: devices, node: nodes })
    .from(devices)
    .innerJoin(nodes, eq(nodes.id, devices.nodeId))
    .innerJoin(networks, eq(networks.id, devices.networkId))
    .leftJoin(memberships, memberOf(auth))
    .where(and(visible, networkId ? eq(devices.networkId, networkId) : undefined, afterCursor(devices, page.cursor)))
    .orderBy(asc(devices.createdAt), asc(devices.id))
    .limit(page.limit + 1)
    .all();
  return rows.map((row) => ({ ...row, createdAt: row.device.createdAt, id: row.device.id }));
}
