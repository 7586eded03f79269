import { isSourceOf, type Topology, type TopologyNode } from "./topology";
import type { RoutingIntentEntry } from "./types";

/**
 * What each policy asks of this node, for agents and clients that program routes themselves (with
 * `wg setconf`, which installs no routes) and for operators reading a config. One entry per policy in
 * which the node takes part, in policy id order.
 */
export function routingIntentFor(topology: Topology, node: TopologyNode): RoutingIntentEntry[] {
  const intent: RoutingIntentEntry[] = [];
  for (const { policy, destination } of topology.policiesById) {
    const path = policy.gatewayPath;
    const base = { policyId: policy.id, name: policy.name, destinationCidr: destination.text, path: [...path] };
    if (isSourceOf(node, policy.id)) {
      intent.push({ ...base, role: "source", previousHop: null, nextHop: path[0]! });
      continue;
    }
    const at = path.indexOf(node.id);
    if (at < 0) continue;
    const previousHop = at === 0 ? null : path[at - 1]!;
    const last = at === path.length - 1;
    intent.push({ ...base, role: last ? "egress" : "transit", previousHop, nextHop: last ? null : path[at + 1]! });
  }
  return intent;
}
