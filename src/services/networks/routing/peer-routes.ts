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
  return routes
    .filter((route) => route.allowedIps.length > 0)
    .filter(hasKey)
    .sort((a, b) => compareBigInt(a.peer.key, b.peer.key) || compareIds(a.peer, b.peer));
}

/**
 * A flat node reaches every other flat node directly, and through it that node's whole subtree. When
 * this node is a source, each policy destination goes to the path's first hop; the first hop is always
 * a root of the forest, hence a flat peer, so the entry always has somewhere to go.
 */
function meshRoutes(topology: Topology, node: TopologyNode): Route[] {
  const { access, forwarders } = topology;
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
  // Policy mode trims the mesh to the pairs where one side may reach the other. Gateways on paths stay
  // peers of everyone and hold everyone (chains need them); their own filters decide what passes.
  const trims = access !== null && !forwarders.has(node.id);
  for (const peer of topology.flat) {
    if (peer.id === node.id) continue;
    if (trims && !forwarders.has(peer.id) && !access.mayPeer(node.id, peer.id)) continue;
    routes.push({ peer, allowedIps: [...subtreeOf(topology, peer), ...(destinationsVia.get(peer.id) ?? [])] });
  }
  return routes;
}

function subtreeOf(topology: Topology, node: TopologyNode): string[] {
  return topology.subtree.get(node.id) ?? [node.hostPrefix];
}
