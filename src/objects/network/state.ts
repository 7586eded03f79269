import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dnsRecords, gatewayPools, networks, nodes, relayedPairs, routingPolicies } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { loadAccessState } from "./access-policy/access-state";

/** Everything routing depends on, read in one round trip (a fixed number of queries at any size). */
export async function loadRoutingState(db: Db, networkId: string) {
  const [networkRows, nodeRows, policyRows, poolRows, pairRows] = await db.batch([
    db.select().from(networks).where(eq(networks.id, networkId)),
    db.select().from(nodes).where(eq(nodes.networkId, networkId)),
    db.select().from(routingPolicies).where(eq(routingPolicies.networkId, networkId)),
    db.select().from(gatewayPools).where(eq(gatewayPools.networkId, networkId)),
    db.select().from(relayedPairs).where(eq(relayedPairs.networkId, networkId)),
  ]);
  const network = networkRows[0];
  if (!network) throw notFound("Network");
  return { network, nodes: nodeRows, policies: policyRows, pools: poolRows, relayedPairs: pairRows };
}

/** Everything the network's writer holds in memory: the routing state, the DNS records and the access policy. */
export async function loadNetworkState(db: Db, networkId: string) {
  const [routing, records] = await Promise.all([
    loadRoutingState(db, networkId),
    db.select().from(dnsRecords).where(eq(dnsRecords.networkId, networkId)).all(),
  ]);
  return { ...routing, records, ...(await loadAccessState(db, routing.network)) };
}

export type NetworkState = Awaited<ReturnType<typeof loadNetworkState>>;

/**
 * The revision bump that rides in the same batch as the write it describes. Only the network's writer
 * runs these, one at a time, so `current + 1` is exactly what the row will hold. `onlyIf`: the write is
 * conditional (insert-where), and the revision moves only when it happened.
 */
export const bumpRoutingRevision = (db: Db, networkId: string, onlyIf?: SQL) =>
  db
    .update(networks)
    .set({ routingRevision: sql`${networks.routingRevision} + 1`, updatedAt: nowIso() })
    .where(and(eq(networks.id, networkId), onlyIf));

export const bumpDnsRevision = (db: Db, networkId: string, onlyIf?: SQL) =>
  db
    .update(networks)
    .set({ dnsRevision: sql`${networks.dnsRevision} + 1`, updatedAt: nowIso() })
    .where(and(eq(networks.id, networkId), onlyIf));
