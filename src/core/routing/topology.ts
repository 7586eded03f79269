import type { CompiledAccess } from "../access-policy/compile";
import type { RoutedDestination } from "../access-policy/forward";
import { mustParseCidr, type Cidr } from "../net/cidr";
import { cidrBounds, formatAddress, parseAddress } from "../net/ipam";
import { buildForest, byDestination, type AcceptedPolicy } from "./forest";
import { compareBigInt, compareIds } from "./ordering";
import { relayLayoutOf } from "./relays";
import { standbyLinksOf } from "./standby-links";
import type { RoutingNetwork, RoutingNode, RoutingPolicy } from "./types";

/**
 * Everything about a network's routing that does not depend on which node is asking, computed once so
 * that rendering one config is O(peers) and rendering all of them is not O(N^2) per node.
 */

export interface TopologyNode extends RoutingNode {
  /** The address as a number, for numeric ordering. */
  key: bigint;
  /** "10.0.0.5/32" or "fd00::5/128": the node's own AllowedIPs entry. */
  hostPrefix: string;
}

export interface Topology {
  network: RoutingNetwork;
  cidr: Cidr;
  nodes: Map<string, TopologyNode>;
  /** Nodes left out because their address is unusable (unparseable, outside the CIDR, a duplicate). */
  ignoredNodes: string[];
  /** Non-gateways plus gateways without a parent, ordered by address: they form the full mesh. */
  flat: TopologyNode[];
  parent: Map<string, string>;
  /** Children of each gateway that has any, ordered by address. */
  children: Map<string, TopologyNode[]>;
  /** Host prefixes of a gateway and all its descendants, ordered by address (absent: just the node). */
  subtree: Map<string, string[]>;
  /** Destinations whose path goes parent(c) -> c, keyed by c, in destination order. */
  edgeDestinations: Map<string, string[]>;
  /** Usable policies in id order (intent order) and in destination order (AllowedIPs order). */
  policiesById: AcceptedPolicy[];
  policiesByDestination: AcceptedPolicy[];
  skippedPolicies: { policyId: string; reason: string }[];
  /** Gateways on at least one path: they forward. */
  forwarders: Set<string>;
  /** Pool members standing by: like forwarders, everyone holds them (a failover makes them one). */
  standbys: Set<string>;
  /** Direct tunnels of standbys with the hops beside theirs, both directions (routing/standby-links.ts). */
  links: Map<string, Set<string>>;
  /** Relays that can carry pairs: like forwarders, everyone holds them (docs/nat.md). */
  relays: Set<string>;
  /** Per relayed node, each relayed peer and the relay carrying the pair (routing/relays.ts). */
  relayVia: Map<string, Map<string, string>>;
  /** Policy mode: who may reach whom (services/networks/access); null in open mode. */
  access: CompiledAccess | null;
  /** Per gateway, the routed destinations on its paths: where its forward filter applies. */
  destinationsThrough: Map<string, RoutedDestination[]>;
  /** Each usable policy's destination, parsed once (access checks compare prefixes). */
  destinationOf: Map<string, Cidr>;
}

export function buildTopology(
  network: RoutingNetwork,
  nodes: readonly RoutingNode[],
  policies: readonly RoutingPolicy[],
  access: CompiledAccess | null = null,
): Topology {
  const cidr = mustParseCidr(network.cidr);
  const { nodes: byId, ignored } = indexNodes(cidr, nodes);
  const gatewayIds = new Set([...byId.values()].filter((node) => node.isGateway).map((node) => node.id));
  const forest = buildForest(cidr.text, gatewayIds, policies);
  const ordered = [...byId.values()].sort((a, b) => compareBigInt(a.key, b.key) || compareIds(a, b));
  const { links, standbys, parent } = standbyLinksOf(forest.accepted, forest.parent, (id) => byId.has(id));

  const children = new Map<string, TopologyNode[]>();
  for (const node of ordered) {
    const parentId = parent.get(node.id);
    if (parentId !== undefined) append(children, parentId, node);
  }

  // A node goes into its own list (when it has children) and into every ancestor's. Depth is bounded
  // by the longest path, so this is O(nodes x hops); visiting in address order keeps each list sorted.
  const subtree = new Map<string, string[]>();
  for (const node of ordered) {
    if (children.has(node.id)) append(subtree, node.id, node.hostPrefix);
    for (let ancestor = parent.get(node.id); ancestor !== undefined; ancestor = parent.get(ancestor)) {
      append(subtree, ancestor, node.hostPrefix);
    }
  }

  const policiesByDestination = byDestination(forest.accepted);
  const edgeDestinations = new Map<string, string[]>();
  const forwarders = new Set<string>();
  const destinationsThrough = new Map<string, RoutedDestination[]>();
  const destinationOf = new Map<string, Cidr>();
  for (const { policy, destination: key } of policiesByDestination) {
    const destination = mustParseCidr(key.text);
    destinationOf.set(policy.id, destination);
    policy.gatewayPath.forEach((hop, index) => {
      forwarders.add(hop);
      if (index > 0) append(edgeDestinations, hop, key.text);
      append(destinationsThrough, hop, { policyId: policy.id, destination });
    });
  }

  const { relays, relayVia } = relayLayoutOf(network.relayedPairs ?? [], byId, parent, access);

  return {
    network,
    cidr,
    nodes: byId,
    ignoredNodes: ignored,
    flat: ordered.filter((node) => !parent.has(node.id)),
    parent,
    children,
    subtree,
    edgeDestinations,
    policiesById: forest.accepted,
    policiesByDestination,
    skippedPolicies: forest.skipped,
    forwarders,
    standbys,
    links,
    relays,
    relayVia,
    access,
    destinationsThrough,
    destinationOf,
  };
}

/** Whether a node's own routing preference makes it a source of the policy. */
export function isSourceOf(node: RoutingNode, policyId: string): boolean {
  if (node.isGateway) return false;
  if (node.routing.mode === "all") return true;
  if (node.routing.mode === "none") return false;
  return node.routing.policyIds.includes(policyId);
}

function indexNodes(cidr: Cidr, nodes: readonly RoutingNode[]): { nodes: Map<string, TopologyNode>; ignored: string[] } {
  const bounds = cidrBounds(cidr);
  const hostLength = cidr.family === "ipv4" ? 32 : 128;
  const byId = new Map<string, TopologyNode>();
  const addressesSeen = new Set<bigint>();
  const ignored: string[] = [];
  // Id order decides which of two nodes claiming one address keeps it, independent of input order.
  for (const node of [...nodes].sort(compareIds)) {
    const parsed = parseAddress(node.address);
    const usable = parsed && parsed.family === cidr.family && parsed.value >= bounds.first && parsed.value <= bounds.last;
    if (!usable || byId.has(node.id) || addressesSeen.has(parsed.value)) {
      ignored.push(node.id);
      continue;
    }
    addressesSeen.add(parsed.value);
    const address = formatAddress(cidr.family, parsed.value);
    byId.set(node.id, { ...node, address, key: parsed.value, hostPrefix: `${address}/${hostLength}` });
  }
  return { nodes: byId, ignored };
}

function append<T>(lists: Map<string, T[]>, key: string, value: T): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}
