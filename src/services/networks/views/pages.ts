import { and, asc, eq, inArray, ne, or } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../../db/client";
import { devices, dnsRecords, enrolmentKeys, memberships, networks, nodes, routingPolicies, tunnelObservations } from "../../../db/schema";
import { afterCursor } from "../../../lib/pagination";
import type { UserPrincipal } from "../../../lib/types";
import { nodeDetailVisible, ownedDevice, seesNodeDetail } from "../device-node-privacy";

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

const peer = alias(nodes, "peer");
const reporterDevice = alias(devices, "reporter_device");
const peerDevice = alias(devices, "peer_device");

/**
 * A tunnel's counters and handshakes are its ends' detail (device-node-privacy.ts): a caller sees a tunnel
 * its own device reports, or one whose both ends' detail it may read.
 */
const tunnelVisible = (auth: UserPrincipal) =>
  or(
    ownedDevice(auth, memberships.role, reporterDevice),
    and(nodeDetailVisible(auth, memberships.role, reporterDevice), nodeDetailVisible(auth, memberships.role, peerDevice)),
  );

/** The peer's node is resolved here (by network and public key), so heartbeats never pay for it. */
export async function listTunnels(db: Db, auth: UserPrincipal, page: PageRequest, filter: { networkId?: string; nodeId?: string }) {
  const t = tunnelObservations;
  const query = db
    .select({ tunnel: t, toNodeId: peer.id })
    .from(t)
    .innerJoin(networks, eq(networks.id, t.networkId))
    // `<> ''` lets SQLite use the partial key index (keyless nodes hold ''): one lookup a row, not a scan.
    .leftJoin(peer, and(eq(peer.networkId, t.networkId), eq(peer.publicKey, t.peerPublicKey), ne(peer.publicKey, "")))
    .leftJoin(reporterDevice, eq(reporterDevice.nodeId, t.fromNodeId))
    .leftJoin(peerDevice, eq(peerDevice.nodeId, peer.id));
  const admin = auth.platformRole === "admin";
  const scoped = admin ? query : query.innerJoin(memberships, memberOf(auth));
  const rows = await scoped
    .where(
      and(
        admin ? undefined : tunnelVisible(auth),
        filter.networkId ? eq(t.networkId, filter.networkId) : undefined,
        filter.nodeId ? or(eq(t.fromNodeId, filter.nodeId), eq(peer.id, filter.nodeId)) : undefined,
        afterCursor(t, page.cursor),
      ),
    )
    .orderBy(asc(t.createdAt), asc(t.id))
    .limit(page.limit + 1)
    .all();
  return rows.map((row) => ({ ...row.tunnel, toNodeId: row.toNodeId }));
}
