import { forwardRules } from "../access-policy/forward";
import { endpointFor } from "./endpoints";
import { routingIntentFor } from "./intent";
import { peerRoutes } from "./peer-routes";
import { buildTopology, type Topology, type TopologyNode } from "./topology";
import type { NodeConfig, NodeConfigCore, PeerConfig, RoutingNetwork, RoutingNode, RoutingPolicy } from "./types";
import { renderWgQuick } from "./wg-quick";

/**
 * A node that cannot accept connections (no endpoint) must keep NAT and firewall mappings open
 * towards peers it has an endpoint for (configured or learned: docs/nat.md), or they could never reach it first. 25 s is WireGuard's own advice.
 */
const KEEPALIVE_SECONDS = 25;

/**
 * Who sends keepalives to a peer: a node that only dials out (above), and every gateway to every gateway.
 * Between gateways it keeps a pool's standby tunnels handshaken, and it makes a new peer handshake the
 * moment it is configured (WireGuard sends a keepalive when one is switched on), so whichever end applies
 * a change last opens the session at once instead of the first end's 5 s retry (docs/routing.md).
 */
const keepalive = (node: TopologyNode, peer: TopologyNode, peerEndpoint: string | null) =>
  peerEndpoint !== null && (node.endpoint === null || (node.isGateway && peer.isGateway)) ? KEEPALIVE_SECONDS : null;

/**
 * The configuration of one node, rendered from a shared topology. Callers have loaded the node, so a
 * node missing here (unknown id, or a stored address the topology had to ignore) is a broken invariant
 * and throws rather than serving a config that cannot work.
 */
export function configFor(topology: Topology, nodeId: string): NodeConfig {
  const config = configCoreFor(topology, nodeId);
  return { ...config, wgQuick: renderWgQuick(config, topology.cidr.family) };
}

/** The config without its wg-quick text: what a delta compares, at half the cost. */
export function configCoreFor(topology: Topology, nodeId: string): NodeConfigCore {
  const node = topology.nodes.get(nodeId);
  if (!node) {
    const why = topology.ignoredNodes.includes(nodeId) ? "its address is unusable in this network" : "it is not a node of this network";
    throw new Error(`Cannot build a config for node ${nodeId}: ${why}`);
  }
  const peers: PeerConfig[] = peerRoutes(topology, node).map(({ peer, allowedIps }) => {
    // Two nodes that only dial out both get the other's learned endpoint and a keepalive: both NATs open.
    const endpoint = endpointFor(node, peer);
    return {
      nodeId: peer.id,
      name: peer.name,
      address: peer.address,
      publicKey: peer.publicKey,
      endpoint,
      allowedIps,
      persistentKeepalive: keepalive(node, peer, endpoint),
    };
  });
  return {
    nodeId: node.id,
    networkId: topology.network.id,
    routingRevision: topology.network.routingRevision,
    // The network's prefix length, not /32: the kernel then has one connected route for the overlay.
    interface: { address: `${node.address}/${topology.cidr.prefix}`, listenPort: node.listenPort, ...dnsOf(topology.network) },
    peers,
    routingIntent: routingIntentFor(topology, node),
    // A standby forwards before it is needed: a failover then changes its peers and routes, not its sysctls.
    // A relay forwards between the pairs it carries.
    forwarding: topology.forwarders.has(node.id) || topology.standbys.has(node.id) || topology.relays.has(node.id),
    ...accessFiltersFor(topology, node.id),
  };
}

/** Policy mode only: the node's inbound filter and, on a gateway, the forward filter of its paths. */
function accessFiltersFor(topology: Topology, nodeId: string): Pick<NodeConfigCore, "accessRules" | "forwardRules"> {
  const { access } = topology;
  if (!access) return {};
  const through = topology.destinationsThrough.get(nodeId);
  return {
    accessRules: access.inboundRules(nodeId),
    ...(through ? { forwardRules: forwardRules(access.nodes, access.rules, through) } : {}),
  };
}

function dnsOf(network: Topology["network"]): Pick<NodeConfig["interface"], "dns" | "dnsSearch"> {
  const dns = [...network.dnsServers];
  return { dns, dnsSearch: dns.length > 0 && network.dnsDomain ? [network.dnsDomain] : [] };
}

/** One config without keeping the topology: convenient for a single request. */
export function buildNodeConfig(
  network: RoutingNetwork,
  nodes: readonly RoutingNode[],
  policies: readonly RoutingPolicy[],
  nodeId: string,
): NodeConfig {
  return configFor(buildTopology(network, nodes, policies), nodeId);
}
