import { cidrBounds, parseAddress } from "../net/ipam";
import { compareBigInt, compareIds } from "./ordering";
import { isSourceOf, type Topology, type TopologyNode } from "./topology";

/**
 * The peers of one node and the AllowedIPs of each. On a WireGuard interface AllowedIPs is both the
 * routing table (longest prefix picks the peer a packet leaves through) and the source filter (a
 * packet from a peer is accepted only if its source lies in that peer's AllowedIPs), so every prefix
 * here has to be right in both directions. docs/routing.md walks through why each entry exists.
 */

interface Route {
  peer: TopologyNode;
  allowedIps: string[];
}

export interface PeerRoute extends Route {
  peer: TopologyNode & { publicKey: string };
}

/** WireGuard has no keyless peer: a gateway node awaiting its agent's key is nobody's peer until it has one. */
const hasKey = (route: Route): route is PeerRoute => route.peer.publicKey !== null;

export function peerRoutes(topology: Topology, node: TopologyNode): PeerRoute[] {
  const routes: Route[] = [];
  const parentId = topology.parent.get(node.id);
  if (parentId !== undefined) {
    // A deep gateway sends everything outside its own subtree up; its children's longer prefixes win
    // for what lies below. Upstream also delivers replies from anywhere, so it must accept any source
    // in the overlay, which the network CIDR is.
    routes.push({ peer: topology.nodes.get(parentId)!, allowedIps: [topology.cidr.text] });
  } else {
    routes.push(...meshRoutes(topology, node));
  }
  // Roots and deep gateways alike reach each child for the child's subtree and the destinations whose
  // path continues through that child.
  for (const child of topology.children.get(node.id) ?? []) {
    routes.push({ peer: child, allowedIps: [...subtreeOf(topology, child), ...(topology.edgeDestinations.get(child.id) ?? [])] });
  }
  const relayed = topology.relayVia.get(node.id);
  return (
    withRelays(topology, withStandbyLinks(topology, node, routes), relayed)
      // A relayed peer stays, emptied: its endpoint and keepalive keep trying the direct path underneath.
      .filter((route) => route.allowedIps.length > 0 || relayed?.has(route.peer.id))
      .filter(hasKey)
      .sort((a, b) => compareBigInt(a.peer.key, b.peer.key) || compareIds(a.peer, b.peer))
  );
}

/**
 * A standby link carries the linked node's subtree (itself, and for a deep gateway what lies below it), taken
 * off whichever route held it before (a root's mesh entry): a prefix sits on one peer only. The subtree, not
 * just the address, keeps paths symmetric: what lies below a linked gateway reaches this node up through that
 * gateway, so this node must send back the same way and accept those sources from it. Subtrees of a forest
 * nest or are disjoint; of two linked ones holding a prefix, the smaller (nearer) one takes it.
 */
function withStandbyLinks(topology: Topology, node: TopologyNode, routes: Route[]): Route[] {
  const linked = topology.links.get(node.id);
  if (!linked) return routes;
  const peers = [...linked]
    .map((id) => ({ peer: topology.nodes.get(id)!, subtree: subtreeOf(topology, topology.nodes.get(id)!) }))
    .sort((a, b) => b.subtree.length - a.subtree.length || compareIds(a.peer, b.peer));
  const claimedBy = new Map<string, string>();
  for (const { peer, subtree } of peers) for (const prefix of subtree) claimedBy.set(prefix, peer.id);
  const unclaimed = (prefix: string) => !claimedBy.has(prefix);
  const kept = routes
    .filter((route) => !linked.has(route.peer.id))
    .map((route) => (route.allowedIps.every(unclaimed) ? route : { ...route, allowedIps: route.allowedIps.filter(unclaimed) }));
  for (const { peer, subtree } of peers) {
    // What an existing route to the peer carried besides subtrees (a destination, the parent's overlay) stays.
    const before = routes.find((route) => route.peer.id === peer.id)?.allowedIps ?? [];
    kept.push({ peer, allowedIps: [...subtree.filter((prefix) => claimedBy.get(prefix) === peer.id), ...before.filter(unclaimed)] });
  }
  return kept;
}

/**
 * A relayed peer's own address moves onto its relay's entry; the peer's entry keeps the rest (docs/nat.md).
 * On the relay's entry the carried addresses join its node addresses in numeric order, before destinations.
 */
function withRelays(topology: Topology, routes: Route[], relayed: ReadonlyMap<string, string> | undefined): Route[] {
  if (!relayed) return routes;
  const moving = new Map<string, TopologyNode[]>();
  for (const route of routes) {
    const relayId = relayed.get(route.peer.id);
    if (relayId !== undefined) moving.set(relayId, [...(moving.get(relayId) ?? []), route.peer]);
  }
  return routes.map((route) => {
    if (relayed.has(route.peer.id)) return { ...route, allowedIps: route.allowedIps.filter((prefix) => prefix !== route.peer.hostPrefix) };
    const carried = moving.get(route.peer.id);
    return carried ? { ...route, allowedIps: withCarried(topology, route.allowedIps, carried) } : route;
  });
}

function withCarried(topology: Topology, allowedIps: string[], carried: TopologyNode[]): string[] {
  const bounds = cidrBounds(topology.cidr);
  const hostLength = topology.cidr.family === "ipv4" ? 32 : 128;
  const overlayKey = (prefix: string) => {
    const [address, length] = prefix.split("/");
    const parsed = Number(length) === hostLength ? parseAddress(address!) : null;
    return parsed && parsed.value >= bounds.first && parsed.value <= bounds.last ? parsed.value : null;
  };
  const hosts = allowedIps.flatMap((prefix) => {
    const key = overlayKey(prefix);
    return key === null ? [] : [{ prefix, key }];
  });
  const merged = [...hosts, ...carried.map((peer) => ({ prefix: peer.hostPrefix, key: peer.key }))].sort((a, b) =>
    compareBigInt(a.key, b.key),
  );
  return [...merged.map((host) => host.prefix), ...allowedIps.filter((prefix) => overlayKey(prefix) === null)];
}

/**
 * A flat node reaches every other flat node directly, and through it that node's whole subtree. When
 * this node is a source, each policy destination goes to the path's first hop; the first hop is always
 * a root of the forest, hence a flat peer, so the entry always has somewhere to go.
 */
function meshRoutes(topology: Topology, node: TopologyNode): Route[] {
  const { access } = topology;
  const destinationsVia = new Map<string, string[]>();
  for (const { policy, destination } of topology.policiesByDestination) {
    if (!isSourceOf(node, policy.id)) continue;
    // A destination no part of which the node may reach is not routed into the tunnel at all.
    if (access && !access.reachesDestination(node.id, topology.destinationOf.get(policy.id)!)) continue;
    const firstHop = policy.gatewayPath[0]!;
    const list = destinationsVia.get(firstHop);
    if (list) list.push(destination.text);
    else destinationsVia.set(firstHop, [destination.text]);
  }
  const routes: Route[] = [];
  for (const peer of meshPeers(topology, node)) {
    if (peer.id === node.id) continue;
    routes.push({ peer, allowedIps: [...subtreeOf(topology, peer), ...(destinationsVia.get(peer.id) ?? [])] });
  }
  return routes;
}

/**
 * The flat nodes a flat node holds. Policy mode trims the mesh to the pairs where one side may reach the
 * other; gateways on paths, pool members standing by to be on one, and relays stay peers of everyone and hold
 * everyone (chains need them; their own filters decide what passes). The trimmed list comes from the policy's classes (access-policy/compile.ts peersOf), not
 * from asking about every node: a laptop allowed 50 peers in a 10,000-node network costs ~50, and every
 * node's config after a change costs the peers there are, not nodes² (docs/access.md, "Measured").
 * Order does not matter here: peerRoutes sorts.
 */
function meshPeers(topology: Topology, node: TopologyNode): Iterable<TopologyNode> {
  const { access, forwarders, standbys, relays } = topology;
  if (access === null || forwarders.has(node.id) || standbys.has(node.id) || relays.has(node.id)) return topology.flat;
  const peers = new Map<string, TopologyNode>();
  const add = (id: string) => {
    const peer = topology.nodes.get(id);
    // Flat only: a node below a gateway is reached through its parent's subtree entry.
    if (peer && !topology.parent.has(id)) peers.set(id, peer);
  };
  for (const id of forwarders) add(id);
  for (const id of standbys) add(id);
  for (const id of relays) add(id);
  // A relayed pair keeps its direct entry (retried underneath); the relay carries its traffic.
  for (const id of topology.relayVia.get(node.id)?.keys() ?? []) add(id);
  for (const subject of access.peersOf(node.id)) add(subject.id);
  return peers.values();
}

function subtreeOf(topology: Topology, node: TopologyNode): string[] {
  return topology.subtree.get(node.id) ?? [node.hostPrefix];
}
