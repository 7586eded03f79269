import { type HeldNetwork, pairKey } from "../memory/held-network";
import type { Topology, TopologyNode } from "../../../core/routing/topology";
import { endpointFor } from "../../../core/routing/endpoints";
import { HANDSHAKE_FRESH_MS } from "./learn";
import type { NatRules } from "./rules";
import type { NatTracker } from "./tracker";

export type MoveReason = "no-direct-handshake" | "relay-unreachable" | "direct-works";

/** One pair's move: onto `relayNodeId`, or back to direct (null). */
export interface PairMove {
  nodeA: string;
  nodeB: string;
  relayNodeId: string | null;
  holdSeconds: number;
  reason: MoveReason;
}

/** A handshake reported this recently is a live session (WireGuard's 180 s, plus the reports' own delay). */
export const ALIVE_MS = HANDSHAKE_FRESH_MS + 120_000;
const MAX_HOLD_SECONDS = 3600;

/**
 * Which pairs move (docs/nat.md). Pairs of nodes that both only dial out (no endpoint of their own) and hold
 * each other as peers:
 * - direct, with no live handshake `directTimeoutMs` after both ran a config with the other's endpoint (and, if
 *   they had one before, after it went stale): onto the relay both ends have a live session with, least loaded;
 * - relayed, once the hold has passed and both ends report a direct handshake since the move (their direct
 *   entries keep trying underneath): back to direct. Evidence, not a timer, brings a pair back, so a pair
 *   whose NAT never lets it through stays relayed and does not bounce; a return that fails doubles the hold;
 * - relayed through a relay one end lost its session with: onto another, or nowhere.
 * `nextCheckAt`: the earliest time a pair's answer could change without a new report.
 */
export function decidePairs(topology: Topology, held: HeldNetwork, tracker: NatTracker, rules: NatRules, now: number) {
  const moves: PairMove[] = [];
  // No relay to move a pair onto, and none carrying one: nothing to decide.
  if (topology.relays.size === 0 && topology.relayVia.size === 0) {
    tracker.takeFocus();
    return { moves, nextCheckAt: null };
  }
  let nextCheckAt: number | null = null;
  const due = (a: TopologyNode, b: TopologyNode, at: number) => {
    tracker.dueAgain(a.id, b.id);
    if (at > now && (nextCheckAt === null || at < nextCheckAt)) nextCheckAt = at;
  };
  const alive = (nodeId: string, peerKey: string | null, after = 0) => {
    const at = peerKey === null ? null : tracker.lastHandshake(nodeId, peerKey);
    return at !== null && at > after && now - at < ALIVE_MS;
  };
  const load = new Map<string, number>();
  for (const relayed of topology.relayVia.values())
    for (const relayId of relayed.values()) load.set(relayId, (load.get(relayId) ?? 0) + 0.5);
  const chooseRelay = (a: TopologyNode, b: TopologyNode, not?: string) =>
    [...topology.relays]
      .filter((id) => id !== not && alive(a.id, topology.nodes.get(id)!.publicKey) && alive(b.id, topology.nodes.get(id)!.publicKey))
      .sort((x, y) => (load.get(x) ?? 0) - (load.get(y) ?? 0) || (x < y ? -1 : 1))[0];

  const arePeers = peering(topology);
  const judge = (a: TopologyNode, b: TopologyNode) => {
    const row = held.relayedPairs.get(pairKey(a.id, b.id));
    const [nodeA, nodeB] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
    const relayId = topology.relayVia.get(a.id)?.get(b.id);
    if (relayId !== undefined && row) {
      const movedAt = Date.parse(row.movedAt);
      const relayKey = topology.nodes.get(relayId)!.publicKey;
      if (!alive(a.id, relayKey) || !alive(b.id, relayKey)) {
        const other = chooseRelay(a, b, relayId) ?? null;
        moves.push({ nodeA, nodeB, relayNodeId: other, holdSeconds: row.holdSeconds, reason: "relay-unreachable" });
      } else if (now - movedAt >= row.holdSeconds * 1000 && alive(a.id, b.publicKey, movedAt) && alive(b.id, a.publicKey, movedAt)) {
        moves.push({ nodeA, nodeB, relayNodeId: null, holdSeconds: row.holdSeconds, reason: "direct-works" });
      } else due(a, b, movedAt + row.holdSeconds * 1000);
      return;
    }
    if (endpointFor(a, b) === null || endpointFor(b, a) === null) return;
    const since = heldSince(held, tracker, a, b);
    if (since === null || alive(a.id, b.publicKey) || alive(b.id, a.publicKey)) return;
    const last = Math.max(tracker.lastHandshake(a.id, b.publicKey!) ?? 0, tracker.lastHandshake(b.id, a.publicKey!) ?? 0);
    const at = Math.max(since + rules.directTimeoutMs, last > 0 ? last + ALIVE_MS : 0);
    if (now < at) return due(a, b, at);
    const relay = chooseRelay(a, b);
    if (relay === undefined) return;
    load.set(relay, (load.get(relay) ?? 0) + 1);
    // Relayed again within the hour after a return: that return failed, so this stay is twice as long.
    const returnedRecently = row !== undefined && row.relayNodeId === null && now - Date.parse(row.movedAt) < MAX_HOLD_SECONDS * 1000;
    const holdSeconds = returnedRecently ? Math.min(row.holdSeconds * 2, MAX_HOLD_SECONDS) : rules.relayHoldSeconds;
    moves.push({ nodeA, nodeB, relayNodeId: relay, holdSeconds, reason: "no-direct-handshake" });
  };

  // Only pairs with something new to judge: a node that reported since the last check, one with a pair due by
  // time, one on a relay. A pair where neither end reported anything new cannot have changed its answer.
  const all = natNodes(topology, tracker);
  const focus = tracker.takeFocus();
  for (const id of topology.relayVia.keys()) focus.add(id);
  const judged = new Set<string>();
  for (const a of all) {
    if (!focus.has(a.id)) continue;
    for (const b of all) {
      const key = pairKey(a.id, b.id);
      if (b === a || judged.has(key) || !arePeers(a, b)) continue;
      judged.add(key);
      judge(a, b);
    }
  }
  return { moves, nextCheckAt: nextCheckAt as number | null };
}

/** Nodes whose pairs may need a relay: flat, keyed, no endpoint of their own, not gateways, and heard from. */
const natNodes = (topology: Topology, tracker: NatTracker) =>
  topology.flat.filter((node) => !node.isGateway && node.endpoint === null && node.publicKey !== null && tracker.knows(node.id));

/** Policy mode trims the mesh: only pairs where one side may reach the other are peers (each node's set built once). */
function peering(topology: Topology) {
  const { access } = topology;
  if (access === null) return () => true;
  const sets = new Map<string, Set<string>>();
  return (a: TopologyNode, b: TopologyNode) => {
    const peers = sets.get(a.id) ?? new Set(access.peersOf(a.id).map((subject) => subject.id));
    sets.set(a.id, peers);
    return peers.has(b.id);
  };
}

/** Since when both ends have run a config holding the other as it is now (a node's revision moves with its endpoints). */
function heldSince(held: HeldNetwork, tracker: NatTracker, a: TopologyNode, b: TopologyNode): number | null {
  const [rowA, rowB] = [held.nodes.get(a.id), held.nodes.get(b.id)];
  if (!rowA || !rowB) return null;
  const [sinceA, sinceB] = [tracker.holdsSince(a.id, rowB.revision), tracker.holdsSince(b.id, rowA.revision)];
  return sinceA === null || sinceB === null ? null : Math.max(sinceA, sinceB);
}
