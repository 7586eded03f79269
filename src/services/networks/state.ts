import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dnsRecords, gatewayPools, networks, nodes, relayedPairs, routingPolicies } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { loadAccessState } from "./access/access-state";
import { parseAddress } from "./net/ipam";
import { publicKeyOrNull } from "./net/wireguard-key";
import type { RoutingNetwork, RoutingNode, RoutingPolicy } from "./routing";
import { compareBigInt } from "./routing/ordering";

export type NetworkRow = typeof networks.$inferSelect;
export type NodeRow = typeof nodes.$inferSelect;
export type PolicyRow = typeof routingPolicies.$inferSelect;
export type DnsRecordRow = typeof dnsRecords.$inferSelect;
export type PoolRow = typeof gatewayPools.$inferSelect;
export type RelayedPairRow = typeof relayedPairs.$inferSelect;

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

/** resolv.conf reads at most three name servers. */
const MAX_DNS_SERVERS = 3;

/**
 * The network's DNS servers: overlay addresses of its gateway nodes that serve the zone and have a key
 * (a keyless node is nobody's peer, so unreachable), lowest address first, at most three. Every input is a
 * node column whose change bumps the routing revision, so a topology of a revision has one answer.
 */
export function dnsServersOf(nodes: Iterable<NodeRow>): string[] {
  const servers = [...nodes]
    .filter((node) => node.isGateway && node.servesDns && publicKeyOrNull(node.publicKey) !== null)
    .map((node) => ({ address: node.address, value: parseAddress(node.address)?.value }))
    .filter((server): server is { address: string; value: bigint } => server.value !== undefined)
    .sort((a, b) => compareBigInt(a.value, b.value));
  return servers.slice(0, MAX_DNS_SERVERS).map((server) => server.address);
}

/** Stored rows → the routing core's inputs. */
export function toRoutingNetwork(network: NetworkRow, dnsServers: string[] = [], pairs: readonly RelayedPairRow[] = []): RoutingNetwork {
  const relayed = pairs.flatMap((pair) => (pair.relayNodeId ? [{ a: pair.nodeA, b: pair.nodeB, relayId: pair.relayNodeId }] : []));
  return {
    id: network.id,
    cidr: network.cidr,
    routingRevision: network.routingRevision,
    dnsServers,
    dnsDomain: network.dnsDomain,
    ...(relayed.length > 0 ? { relayedPairs: relayed } : {}),
  };
}

export function toRoutingNode(node: NodeRow): RoutingNode {
  const routing: RoutingNode["routing"] =
    node.routingMode === "only" ? { mode: "only", policyIds: node.routingPolicyIds } : { mode: node.routingMode };
  return {
    id: node.id,
    name: node.name,
    address: node.address,
    publicKey: publicKeyOrNull(node.publicKey),
    endpoint: node.endpoint,
    listenPort: node.listenPort,
    isGateway: node.isGateway,
    routing,
    ...(node.relay ? { relay: true } : {}),
    ...(hasCandidates(node)
      ? { candidates: { local: node.localEndpoints, publicHost: node.publicHost, observed: node.observedEndpoint } }
      : {}),
  };
}

const hasCandidates = (node: NodeRow) =>
  node.endpoint === null && (node.localEndpoints.length > 0 || node.publicHost !== null || node.observedEndpoint !== null);

export const toRoutingPolicy = (policy: Pick<PolicyRow, "id" | "name" | "destinationCidr" | "gatewayPath">): RoutingPolicy => ({
  id: policy.id,
  name: policy.name,
  destinationCidr: policy.destinationCidr,
  gatewayPath: policy.gatewayPath,
});

/**
 * A stored path with each pool hop resolved to the pool's active member: the path packets take now.
 * The routing core never sees a pool; a failover is a new revision whose topology has another node there.
 */
export const effectivePath = (path: readonly string[], pools: ReadonlyMap<string, Pick<PoolRow, "activeNodeId">>) =>
  path.map((hop) => pools.get(hop)?.activeNodeId ?? hop);

/**
 * Stored policy → the routing core's input, with pool hops resolved (effectivePath) and each pool hop's
 * other members as its standbys (they keep tunnels with the hops beside it: routing/standby-links.ts).
 */
export const toEffectiveRoutingPolicy =
  (pools: ReadonlyMap<string, Pick<PoolRow, "activeNodeId" | "members">>) =>
  (policy: PolicyRow): RoutingPolicy => {
    const standbys = policy.gatewayPath.map((hop) => {
      const pool = pools.get(hop);
      return pool ? pool.members.map((member) => member.nodeId).filter((id) => id !== pool.activeNodeId) : [];
    });
    return {
      ...toRoutingPolicy({ ...policy, gatewayPath: effectivePath(policy.gatewayPath, pools) }),
      ...(standbys.some((members) => members.length > 0) ? { standbys } : {}),
    };
  };
