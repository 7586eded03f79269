import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dnsRecords, networks, nodes, routingPolicies } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import type { RoutingNetwork, RoutingNode, RoutingPolicy } from "./routing";

export type NetworkRow = typeof networks.$inferSelect;
export type NodeRow = typeof nodes.$inferSelect;
export type PolicyRow = typeof routingPolicies.$inferSelect;
export type DnsRecordRow = typeof dnsRecords.$inferSelect;

/** Everything routing depends on, read in one round trip (a fixed number of queries at any size). */
export async function loadRoutingState(db: Db, networkId: string) {
  const [networkRows, nodeRows, policyRows] = await db.batch([
    db.select().from(networks).where(eq(networks.id, networkId)),
    db.select().from(nodes).where(eq(nodes.networkId, networkId)),
    db.select().from(routingPolicies).where(eq(routingPolicies.networkId, networkId)),
  ]);
  const network = networkRows[0];
  if (!network) throw notFound("Network");
  return { network, nodes: nodeRows, policies: policyRows };
}

/** Everything the network's writer holds in memory: the routing state and the DNS records, read concurrently. */
export async function loadNetworkState(db: Db, networkId: string) {
  const [routing, records] = await Promise.all([
    loadRoutingState(db, networkId),
    db.select().from(dnsRecords).where(eq(dnsRecords.networkId, networkId)).all(),
  ]);
  return { ...routing, records };
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

/** Stored rows → the routing core's inputs. */
export function toRoutingNetwork(network: NetworkRow, dnsServers: string[] = []): RoutingNetwork {
  return { id: network.id, cidr: network.cidr, routingRevision: network.routingRevision, dnsServers };
}

export function toRoutingNode(node: NodeRow): RoutingNode {
  const routing: RoutingNode["routing"] =
    node.routingMode === "only" ? { mode: "only", policyIds: node.routingPolicyIds } : { mode: node.routingMode };
  return {
    id: node.id,
    name: node.name,
    address: node.address,
    publicKey: node.publicKey,
    endpoint: node.endpoint,
    listenPort: node.listenPort,
    isGateway: node.isGateway,
    routing,
  };
}

export const toRoutingPolicy = (policy: Pick<PolicyRow, "id" | "name" | "destinationCidr" | "gatewayPath">): RoutingPolicy => ({
  id: policy.id,
  name: policy.name,
  destinationCidr: policy.destinationCidr,
  gatewayPath: policy.gatewayPath,
});
