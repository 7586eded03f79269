import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dnsRecords, nodes, routingPolicies, users } from "../../db/schema";
import { notFound, unauthorized } from "../../lib/errors";
import { callerLive, type WriteCaller } from "./write-caller";

/**
 * Where the Worker sends a write to one of a network's resources: the network the resource is in, read in
 * one row with whether the caller's session is live (routes on the `userWrites` guard check it nowhere
 * else before the writer), so an ended session is told 401 whether the id exists or not. The writer then
 * authorises the caller's role (write-access.ts); these reads decide nothing about it.
 */
const RESOURCES = {
  Node: nodes,
  "Routing policy": routingPolicies,
  "DNS record": dnsRecords,
} as const;

type Resource = keyof typeof RESOURCES;

async function locate(db: Db, what: Resource, id: string, caller: WriteCaller) {
  const table = RESOURCES[what];
  const row = await db
    .select({ live: callerLive(caller), networkId: table.networkId })
    .from(users)
    .leftJoin(table, eq(table.id, id))
    .where(eq(users.id, caller.userId))
    .get();
  if (!row?.live) throw unauthorized("The session has ended; sign in again");
  if (!row.networkId) throw notFound(what);
  return row.networkId;
}

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
  return { networkId, reported };
}
