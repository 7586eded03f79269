import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dnsRecords, networks, nodes, routingPolicies, users } from "../../db/schema";
import { notFound, unauthorized } from "../../lib/errors";
import { callerLive, type WriteCaller } from "../live-authority";

/**
 * Where the Worker sends a write to one of a network's resources: the network the resource is in, read in
 * one row with whether the caller's session is live (routes on the `userWrites` guard check it nowhere
 * else before the writer), so an ended session is told 401 whether the id exists or not. The writer then
 * authorises the caller's role (objects/network/authority/write-authority.ts); these reads decide nothing about it.
 */
const RESOURCES = {
  Network: { table: networks, id: networks.id, networkId: networks.id },
  Node: { table: nodes, id: nodes.id, networkId: nodes.networkId },
  "Routing policy": { table: routingPolicies, id: routingPolicies.id, networkId: routingPolicies.networkId },
  "DNS record": { table: dnsRecords, id: dnsRecords.id, networkId: dnsRecords.networkId },
} as const;

type Resource = keyof typeof RESOURCES;

/**
 * Networks this isolate has seen the directory hold (bounded: the oldest go first). A network's object is made
 * only for an id the directory named: a write naming an id that names nothing is refused here, before any stub,
 * so made-up ids leave no object and no storage behind (security round 4). Remembering is safe because a
 * network's id is never reused: a network deleted since has an object already, which refuses the write itself.
 */
const knownNetworks = new Set<string>();
const KNOWN_NETWORKS_MAX = 10_000;

function rememberNetwork(networkId: string) {
  if (knownNetworks.has(networkId)) return;
  if (knownNetworks.size >= KNOWN_NETWORKS_MAX) knownNetworks.delete(knownNetworks.values().next().value as string);
  knownNetworks.add(networkId);
}

async function locate(db: Db, what: Resource, id: string, caller: WriteCaller) {
  const resource = RESOURCES[what];
  const row = await db
    .select({ live: callerLive(caller), networkId: resource.networkId })
    .from(users)
    .leftJoin(resource.table, eq(resource.id, id))
    .where(eq(users.id, caller.userId))
    .get();
  if (!row?.live) throw unauthorized("The session has ended; sign in again");
  if (!row.networkId) throw notFound(what);
  rememberNetwork(row.networkId);
  return row.networkId;
}

/**
 * A write that names its network (POST /nodes, a network's DNS records, routing policies, its access policy): a
 * network this isolate knows exists goes straight to its writer (the writer checks session and role); any other
 * costs one row read, which refuses an ended session (401) and an id that names nothing (404) before a stub.
 */
export const networkForWrite = async (db: Db, networkId: string, caller: WriteCaller) =>
  knownNetworks.has(networkId) ? networkId : locate(db, "Network", networkId, caller);

export const networkOfPolicyFor = (db: Db, policyId: string, caller: WriteCaller) => locate(db, "Routing policy", policyId, caller);
export const networkOfDnsRecordFor = (db: Db, recordId: string, caller: WriteCaller) => locate(db, "DNS record", recordId, caller);

/** A node's network, and the columns reports write as D1 holds them (the writer's copy of those is stale). */
export async function nodeForWrite(db: Db, nodeId: string, caller: WriteCaller) {
  const row = await db
    .select({
      live: callerLive(caller),
      networkId: nodes.networkId,
      lastSeenAt: nodes.lastSeenAt,
      appliedRoutingRevision: nodes.appliedRoutingRevision,
      appliedDnsRevision: nodes.appliedDnsRevision,
      applyError: nodes.applyError,
    })
    .from(users)
    .leftJoin(nodes, eq(nodes.id, nodeId))
    .where(eq(users.id, caller.userId))
    .get();
  if (!row?.live) throw unauthorized("The session has ended; sign in again");
  const { live: _live, networkId, ...reported } = row;
  if (!networkId) throw notFound("Node");
  rememberNetwork(networkId);
  return { networkId, reported };
}
