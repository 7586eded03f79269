import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { devices, dnsRecords, gatewayPools, groups, memberships, networks, nodes, routingPolicies, type GroupRole } from "../db/schema";
import { forbidden, notFound } from "../lib/errors";
import type { UserPrincipal } from "../lib/types";

/**
 * What a caller wants to do, in increasing privilege:
 * read (viewer) < enrol devices (member) < manage networks and members (admin) < own the group (owner).
 */
export type Need = "read" | "enrol" | "manage" | "own";

const RANK: Record<GroupRole, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };
const REQUIRED: Record<Need, number> = { read: 1, enrol: 2, manage: 3, own: 4 };

export const roleAllows = (role: GroupRole, need: Need) => RANK[role] >= REQUIRED[need];

/** Platform admins act as owners of every group. Others need a membership; without one the group does not exist for them. */
function effectiveRole(auth: Pick<UserPrincipal, "platformRole">, membershipRole: GroupRole | null | undefined): GroupRole | null {
  if (auth.platformRole === "admin") return "owner";
  return membershipRole ?? null;
}

/** The caller's effective role, or 404 (no role: the resource does not exist for them) / 403 (a role below `need`). */
export function check(auth: Pick<UserPrincipal, "platformRole">, role: GroupRole | null | undefined, need: Need, what: string): GroupRole {
  const effective = effectiveRole(auth, role);
  if (!effective) throw notFound(what);
  if (!roleAllows(effective, need)) throw forbidden(`Your role (${effective}) does not allow this`);
  return effective;
}

export async function authorizeGroup(db: Db, auth: UserPrincipal, groupId: string, need: Need) {
  const row = await db
    .select({ group: groups, role: memberships.role })
    .from(groups)
    .leftJoin(memberships, and(eq(memberships.groupId, groups.id), eq(memberships.userId, auth.userId)))
    .where(eq(groups.id, groupId))
    .get();
  if (!row) throw notFound("Group");
  return { group: row.group, role: check(auth, row.role, need, "Group") };
}

/** One query: the network and the caller's role in its group. */
export async function authorizeNetwork(db: Db, auth: UserPrincipal, networkId: string, need: Need) {
  const row = await db
    .select({ network: networks, role: memberships.role })
    .from(networks)
    .leftJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
    .where(eq(networks.id, networkId))
    .get();
  if (!row) throw notFound("Network");
  return { network: row.network, role: check(auth, row.role, need, "Network") };
}

/**
 * One query: the node, its network, the caller's role in the network's group, and the owner of the node's
 * device if it is one (what may be read of a device node: networks/device-node-privacy.ts).
 */
export async function authorizeNode(db: Db, auth: UserPrincipal, nodeId: string, need: Need) {
  const row = await db
    .select({ node: nodes, network: networks, role: memberships.role, deviceOwnerId: devices.userId })
    .from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId))
    .leftJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
    .leftJoin(devices, eq(devices.nodeId, nodes.id))
    .where(eq(nodes.id, nodeId))
    .get();
  if (!row) throw notFound("Node");
  return { node: row.node, network: row.network, role: check(auth, row.role, need, "Node"), deviceOwnerId: row.deviceOwnerId };
}

/** One query: the policy, its network and the caller's role in the network's group. */
export async function authorizePolicy(db: Db, auth: UserPrincipal, policyId: string, need: Need) {
  const row = await db
    .select({ policy: routingPolicies, network: networks, role: memberships.role })
    .from(routingPolicies)
    .innerJoin(networks, eq(networks.id, routingPolicies.networkId))
    .leftJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
    .where(eq(routingPolicies.id, policyId))
    .get();
  if (!row) throw notFound("Routing policy");
  return { policy: row.policy, network: row.network, role: check(auth, row.role, need, "Routing policy") };
}

/** One query: the gateway pool, its network and the caller's role in the network's group. */
export async function authorizePool(db: Db, auth: UserPrincipal, poolId: string, need: Need) {
  const row = await db
    .select({ pool: gatewayPools, network: networks, role: memberships.role })
    .from(gatewayPools)
    .innerJoin(networks, eq(networks.id, gatewayPools.networkId))
    .leftJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
    .where(eq(gatewayPools.id, poolId))
    .get();
  if (!row) throw notFound("Gateway pool");
  return { pool: row.pool, network: row.network, role: check(auth, row.role, need, "Gateway pool") };
}

/** One query: the DNS record, its network and the caller's role in the network's group. */
export async function authorizeDnsRecord(db: Db, auth: UserPrincipal, recordId: string, need: Need) {
  const row = await db
    .select({ record: dnsRecords, network: networks, role: memberships.role })
    .from(dnsRecords)
    .innerJoin(networks, eq(networks.id, dnsRecords.networkId))
    .leftJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
    .where(eq(dnsRecords.id, recordId))
    .get();
  if (!row) throw notFound("DNS record");
  return { record: row.record, network: row.network, role: check(auth, row.role, need, "DNS record") };
}
