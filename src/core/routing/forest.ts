import { checkDestination } from "./destination";
import { compareIds, comparePrefixes, prefixKeyOf, type PrefixKey } from "./ordering";
import type { RoutingPolicy } from "./types";

/**
 * The gateway forest. Replies travel the reverse of the forward path and WireGuard accepts a packet
 * only from the peer whose AllowedIPs hold its source, so a gateway must know which single peer sits
 * "upstream" of it for every policy. That works only if every gateway has one predecessor across all
 * policies: the sources (it is a first hop) or one specific gateway. Those predecessor links form a
 * forest whose roots are the first hops.
 */

export interface Hop {
  gatewayId: string;
  /** The gateway before this one on the path; null when the predecessors are the policy's sources. */
  predecessor: string | null;
}

export function hopsOf(path: readonly string[]): Hop[] {
  return path.map((gatewayId, index) => ({ gatewayId, predecessor: index === 0 ? null : path[index - 1]! }));
}

/** A policy the topology uses, with its destination in canonical form and sort key. */
export interface AcceptedPolicy {
  policy: RoutingPolicy;
  destination: PrefixKey & { text: string };
}

export interface Forest {
  /** Policies in id order. */
  accepted: AcceptedPolicy[];
  /** Policies left out because they break a rule; the API refuses these before storing, so this stays empty in practice. */
  skipped: { policyId: string; reason: string }[];
  /** parent(g) for gateways that follow another gateway; first hops and unused gateways are absent. */
  parent: Map<string, string>;
}

/**
 * Accepts policies in id order, skipping any that would break the forest (or that are malformed), so
 * a bad row can never produce a config with a prefix claimed twice or a loop. Earlier ids win, which
 * keeps the outcome independent of input order.
 */
export function buildForest(networkCidr: string, gatewayIds: ReadonlySet<string>, policies: readonly RoutingPolicy[]): Forest {
  const predecessorOf = new Map<string, string | null>();
  const destinations = new Set<string>();
  const forest: Forest = { accepted: [], skipped: [], parent: new Map() };
  for (const policy of [...policies].sort(compareIds)) {
    const reason = rejectionOf(policy, networkCidr, gatewayIds, destinations, predecessorOf);
    if (reason) {
      forest.skipped.push({ policyId: policy.id, reason });
      continue;
    }
    for (const hop of hopsOf(policy.gatewayPath)) {
      predecessorOf.set(hop.gatewayId, hop.predecessor);
      if (hop.predecessor !== null) forest.parent.set(hop.gatewayId, hop.predecessor);
    }
    const destination = prefixKeyOf(policy.destinationCidr)!;
    destinations.add(destination.text);
    forest.accepted.push({ policy, destination });
  }
  return forest;
}

function rejectionOf(
  policy: RoutingPolicy,
  networkCidr: string,
  gatewayIds: ReadonlySet<string>,
  destinations: ReadonlySet<string>,
  predecessorOf: ReadonlyMap<string, string | null>,
): string | null {
  const path = policy.gatewayPath;
  if (path.length === 0) return "empty gateway path";
  if (new Set(path).size !== path.length) return "gateway path repeats a gateway";
  const notGateway = path.find((id) => !gatewayIds.has(id));
  if (notGateway !== undefined) return `${notGateway} is not a gateway node of this network`;
  const destinationProblem = checkDestination(networkCidr, policy.destinationCidr);
  if (destinationProblem) return destinationProblem;
  if (destinations.has(prefixKeyOf(policy.destinationCidr)!.text)) return "another policy already routes this destination";
  for (const hop of hopsOf(path)) {
    const known = predecessorOf.get(hop.gatewayId);
    if (known !== undefined && known !== hop.predecessor) return `gateway ${hop.gatewayId} already has another predecessor`;
  }
  return null;
}

/** Accepted policies in destination order, the order AllowedIPs lists destinations in. */
export function byDestination(accepted: readonly AcceptedPolicy[]): AcceptedPolicy[] {
  return [...accepted].sort((a, b) => comparePrefixes(a.destination, b.destination) || compareIds(a.policy, b.policy));
}
