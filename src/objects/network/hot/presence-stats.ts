import {
  type AgeHistogram,
  ageHistogram,
  DIRECT_HANDSHAKE_SECONDS,
  HANDSHAKE_AGE_BUCKETS,
  HEARTBEAT_AGE_BUCKETS,
} from "../../../services/metrics/age-buckets";
import { type HeldNetwork, pairKey } from "../memory/held-network";
import type { NodeHot, TunnelRow } from "./hot-store";
import type { PresenceRow } from "./presence-store";

/**
 * What /metrics needs of a network's hot state (services/metrics/fleet-queries.ts), as its object computed it on
 * its last presence check: device nodes' presence, revisions and beat ages, and every tunnel the object holds.
 * Nodes without a device (gateway nodes, whose agents still write D1) are counted from D1 by the scrape.
 */
export interface HotStats {
  /** Device nodes the check judged online. */
  nodesOnline: number;
  /** Device nodes that reported applying a routing revision older than the network's. */
  nodesBehind: number;
  /** Device nodes that never reported an applied revision. */
  nodesUnreported: number;
  /** Ages of the online device nodes' last beats; offline ones are aged from D1's nodes.last_seen_at at scrape time. */
  heartbeatAges: AgeHistogram;
  tunnelEnds: number;
  handshakeAges: AgeHistogram;
  /** Pairs with a handshake in the last 180 s, reported by either end, and not on a relay. */
  directPairs: number;
}

export function hotStats(
  held: HeldNetwork,
  hot: { nodes: Map<string, NodeHot>; tunnels: TunnelRow[] },
  presence: Map<string, PresenceRow>,
  now: Date,
): HotStats {
  const revision = held.network.routingRevision;
  let nodesOnline = 0;
  let nodesBehind = 0;
  let nodesUnreported = 0;
  const onlineBeats: string[] = [];
  for (const node of held.nodes.values()) {
    if (!node.deviceId) continue;
    const beat = hot.nodes.get(node.id);
    const applied = beat?.appliedRevision ?? null;
    if (applied === null) nodesUnreported++;
    else if (applied < revision) nodesBehind++;
    if (presence.get(node.id)?.state === "online") {
      nodesOnline++;
      if (beat?.lastSeenAt) onlineBeats.push(beat.lastSeenAt);
    }
  }
  const directSince = new Date(now.getTime() - DIRECT_HANDSHAKE_SECONDS * 1000).toISOString();
  const direct = new Set<string>();
  for (const tunnel of hot.tunnels) {
    if (tunnel.lastHandshakeAt === null || tunnel.lastHandshakeAt < directSince) continue;
    const peer = held.nodeWithKey(tunnel.peerPublicKey);
    if (!peer || !held.nodes.has(tunnel.fromNodeId)) continue;
    const key = pairKey(tunnel.fromNodeId, peer.id);
    if (held.relayedPairs.get(key)?.relayNodeId) continue;
    direct.add(key);
  }
  return {
    nodesOnline,
    nodesBehind,
    nodesUnreported,
    heartbeatAges: ageHistogram(onlineBeats, HEARTBEAT_AGE_BUCKETS, now),
    tunnelEnds: hot.tunnels.length,
    handshakeAges: ageHistogram(
      hot.tunnels.map((tunnel) => tunnel.lastHandshakeAt),
      HANDSHAKE_AGE_BUCKETS,
      now,
    ),
    directPairs: direct.size,
  };
}
