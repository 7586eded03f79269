import type { TunnelRow } from "../hot/hot-store";
import type { HeldNetwork } from "../memory/held-network";
import { HANDSHAKE_FRESH_MS } from "../nat/learn";
import { configCoreFor, type Topology } from "../../../core/routing";
import { publicHint } from "../../../core/routing/endpoints";
import type { NodeRow } from "../../../db/rows";

export type PathKind = "direct" | "relay" | "unknown";
export type CandidateSource = "configured" | "observed" | "local" | "public";

/**
 * A node's paths to its peers (GET /nodes/:id/paths, docs/nat.md): relay when the server moved the pair onto one;
 * direct when the node's last report shows a handshake with the peer in WireGuard's 180 s; unknown otherwise.
 * The endpoint is where the node's WireGuard last heard the peer from, else what its config names. The node's
 * own candidates say where others are told to find it. `reported`: the node's tunnel rows (the writer's hot state). `devicePeersSeen`
 * (services/networks/device-node-privacy.ts): null, every peer; else the device peers the reader may see (other devices' entries
 * are left out, as GET /tunnels leaves out tunnels leading to them).
 */
export function nodePaths(
  reported: Pick<TunnelRow, "peerPublicKey" | "lastHandshakeAt" | "endpoint">[],
  held: HeldNetwork,
  topology: Topology,
  nodeId: string,
  devicePeersSeen: readonly string[] | null,
  now = Date.now(),
) {
  const node = held.nodes.get(nodeId);
  const config = node && topology.nodes.has(nodeId) ? configCoreFor(topology, nodeId) : null;
  const seen = new Map(reported.map((row) => [row.peerPublicKey, row]));
  const relayed = topology.relayVia.get(nodeId);
  const hidden = (peerId: string) => devicePeersSeen !== null && !!held.nodes.get(peerId)?.deviceId && !devicePeersSeen.includes(peerId);
  const items = (config?.peers ?? [])
    .filter((peer) => !hidden(peer.nodeId))
    .map((peer) => {
      const row = seen.get(peer.publicKey);
      const relayId = relayed?.get(peer.nodeId);
      const handshake = row?.lastHandshakeAt ?? null;
      const live = handshake !== null && now - Date.parse(handshake) < HANDSHAKE_FRESH_MS;
      const path: PathKind = relayId !== undefined ? "relay" : live ? "direct" : "unknown";
      return {
        peerNodeId: peer.nodeId,
        peerName: peer.name,
        path,
        via: relayId !== undefined ? { nodeId: relayId, name: topology.nodes.get(relayId)!.name } : null,
        endpoint: row?.endpoint ?? peer.endpoint,
        lastHandshakeAt: handshake,
      };
    });
  return { nodeId, candidates: node ? candidatesOf(node) : [], items };
}

function candidatesOf(node: NodeRow) {
  const list: { endpoint: string; source: CandidateSource; seenAt: string | null }[] = [];
  if (node.endpoint !== null) list.push({ endpoint: node.endpoint, source: "configured", seenAt: null });
  if (node.observedEndpoint !== null) list.push({ endpoint: node.observedEndpoint, source: "observed", seenAt: node.observedAt });
  for (const endpoint of node.localEndpoints) list.push({ endpoint, source: "local", seenAt: null });
  const hint = publicHint({ local: node.localEndpoints, publicHost: node.publicHost });
  if (hint !== null) list.push({ endpoint: hint, source: "public", seenAt: null });
  return list;
}

/** The network's pairs on a relay now (GET /networks/:id/relayed-pairs): what the topology carries, by name. */
export function relayedPairsOf(held: HeldNetwork, topology: Topology) {
  const named = (id: string) => ({ nodeId: id, name: topology.nodes.get(id)?.name ?? id });
  return [...held.relayedPairs.values()]
    .filter((pair) => pair.relayNodeId !== null && topology.relayVia.get(pair.nodeA)?.get(pair.nodeB) === pair.relayNodeId)
    .map((pair) => ({
      a: named(pair.nodeA),
      b: named(pair.nodeB),
      relay: named(pair.relayNodeId!),
      movedAt: pair.movedAt,
      holdSeconds: pair.holdSeconds,
    }));
}
