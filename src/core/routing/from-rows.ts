import type { NetworkRow, NodeRow, PolicyRow, PoolRow, RelayedPairRow } from "../../db/rows";
import { parseAddress } from "../net/ipam";
import { publicKeyOrNull } from "../net/wireguard-key";
import { compareBigInt } from "./ordering";
import type { RoutingNetwork, RoutingNode, RoutingPolicy } from "./types";

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
