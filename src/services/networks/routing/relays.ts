import type { RoutingNode, RelayedPair } from "./types";

export interface RelayLayout {
  /** Relay nodes that can carry pairs: keyed, reachable (a configured endpoint) and flat (everyone holds them). */
  relays: Set<string>;
  /** For each relayed node, its relayed peers and the relay that carries each pair. */
  relayVia: Map<string, Map<string, string>>;
}

/**
 * Where relayed pairs go (docs/nat.md). A pair is carried only while both its nodes are flat (a node below a
 * gateway is reached through its parent anyway) and its relay can still carry it; otherwise it is direct.
 */
export function relayLayoutOf(
  pairs: readonly RelayedPair[],
  nodes: ReadonlyMap<string, RoutingNode>,
  parent: ReadonlyMap<string, string>,
): RelayLayout {
  const relays = new Set<string>();
  for (const node of nodes.values()) {
    if (node.relay && node.isGateway && node.publicKey !== null && node.endpoint !== null && !parent.has(node.id)) relays.add(node.id);
  }
  const relayVia = new Map<string, Map<string, string>>();
  const flat = (id: string) => nodes.get(id)?.publicKey != null && !parent.has(id);
  for (const { a, b, relayId } of pairs) {
    if (!relays.has(relayId) || a === b || !flat(a) || !flat(b) || relays.has(a) || relays.has(b)) continue;
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
