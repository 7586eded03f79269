import { hopsOf } from "./forest";
import { compareIds, prefixKeyOf } from "./ordering";
import type { RoutingNetwork, RoutingNode, RoutingPolicy } from "./types";

/**
 * Why a set of policies cannot be routed together, as sentences an operator can act on; empty when it
 * can. The API calls this with the policies as they would be after a create or update and answers 409
 * when anything comes back, so nothing unroutable is ever stored.
 *
 * Two rules (docs/routing.md explains them):
 * - every gateway has a single predecessor across all policies: the sources, or one gateway;
 * - no two policies share a destination, since one prefix can belong to only one peer.
 * Path shape (empty, repeats, hop count, gateway role) is validated before this and answered with 400;
 * bad shapes do not crash here, they simply show up as whatever conflict they cause.
 * `network` is taken so callers hand over the whole picture; today only paths and destinations matter.
 */
export function findRoutingConflicts(network: RoutingNetwork, nodes: readonly RoutingNode[], policies: readonly RoutingPolicy[]): string[] {
  void network;
  const names = new Map(nodes.map((node) => [node.id, node.name]));
  const gateway = (id: string) => (names.has(id) ? `gateway "${names.get(id)}" (${id})` : `gateway ${id}`);
  const policyLabel = (policy: RoutingPolicy) => `policy "${policy.name}" (${policy.id})`;
  const claim = (predecessor: string | null, policy: RoutingPolicy) =>
    predecessor === null ? `is the first hop of ${policyLabel(policy)}` : `follows ${gateway(predecessor)} in ${policyLabel(policy)}`;

  const ordered = [...policies].sort(compareIds);
  const conflicts: string[] = [];
  const firstClaim = new Map<string, { predecessor: string | null; policy: RoutingPolicy }>();
  for (const policy of ordered) {
    for (const hop of hopsOf(policy.gatewayPath)) {
      const earlier = firstClaim.get(hop.gatewayId);
      if (!earlier) {
        firstClaim.set(hop.gatewayId, { predecessor: hop.predecessor, policy });
      } else if (earlier.predecessor !== hop.predecessor) {
        const subject = gateway(hop.gatewayId);
        conflicts.push(
          `${subject[0]!.toUpperCase()}${subject.slice(1)} ${claim(earlier.predecessor, earlier.policy)} but ${claim(hop.predecessor, policy)}; ` +
            "a gateway must have a single predecessor (the sources or one gateway) across all policies",
        );
      }
    }
  }

  const byDestination = new Map<string, RoutingPolicy[]>();
  for (const policy of ordered) {
    const key = prefixKeyOf(policy.destinationCidr)?.text ?? policy.destinationCidr;
    byDestination.set(key, [...(byDestination.get(key) ?? []), policy]);
  }
  for (const [destination, sharing] of byDestination) {
    if (sharing.length < 2) continue;
    const verb = sharing.length === 2 ? "both route" : "all route";
    conflicts.push(`${sharing.map(policyLabel).join(" and ")} ${verb} ${destination}; a destination can have only one gateway path`);
  }
  return [...new Set(conflicts)];
}
