import type { CompiledAccess } from "../access-policy/compile";
import type { RoutingNode, RelayedPair } from "./types";

export interface RelayLayout {
  /** Relay nodes that can carry pairs: keyed, reachable (a configured endpoint) and flat (everyone holds them). */
  relays: Set<string>;
  /** For each relayed node, its relayed peers and the relay that carries each pair. */
  relayVia: Map<string, Map<string, string>>;
}

/**
 * Where relayed pairs go (docs/nat.md). A pair is carried only while it is still what the NAT clock relays and its
 * relay can still carry it; otherwise it is direct. A stored pair outlives the change of either end or of the
 * policy, so each end must still be a flat node that only dials out (a gateway's entry carries its subtree,
 * which one relayed address would split; a node with an endpoint is reached there), and in policy mode the
 * two must still be peers (a denied pair holds no entry of the other, and no relay carries it: docs/access.md).
 */
export function relayLayoutOf(
  pairs: readonly RelayedPair[],
  nodes: ReadonlyMap<string, RoutingNode>,
  parent: ReadonlyMap<string, string>,
  access: CompiledAccess | null,
): RelayLayout {
  const relays = new Set<string>();
  for (const node of nodes.values()) {
    if (node.relay && node.isGateway && node.publicKey !== null && node.endpoint !== null && !parent.has(node.id)) relays.add(node.id);
  }
  const relayVia = new Map<string, Map<string, string>>();
  const dialsOut = (id: string) => {
    const node = nodes.get(id);
    return !!node && node.publicKey !== null && !node.isGateway && node.endpoint === null && !parent.has(id);
  };
  for (const { a, b, relayId } of pairs) {
    if (!relays.has(relayId) || a === b || !dialsOut(a) || !dialsOut(b)) continue;
    if (access !== null && !access.mayPeer(a, b)) continue;
    via(relayVia, a).set(b, relayId);
    via(relayVia, b).set(a, relayId);
  }
  return { relays, relayVia };
}

function via(map: Map<string, Map<string, string>>, id: string) {
  const peers = map.get(id) ?? new Map<string, string>();
  map.set(id, peers);
  return peers;
}
