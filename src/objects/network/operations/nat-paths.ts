import { eq, sql } from "drizzle-orm";
import { nodes, relayedPairs } from "../../../db/schema";
import { getConfig } from "../../../lib/env";
import { newId } from "../../../lib/ids";
import { type AuditContext, auditStatement } from "../../../services/audit/audit-trail";
import { commit, type WriterContext } from "../commit";
import { type HeldNetwork, pairKey } from "../memory/held-network";
import { decidePairs, type PairMove } from "../nat/decide";
import { type CandidateChanges, changesEndpoints, expiredCandidates, nextExpiryAt, observedCandidates, ownCandidates } from "../nat/learn";
import { type NatRules, natRules } from "../nat/rules";
import type { NatTracker, PathReport } from "../nat/tracker";
import type { ReportedPeer } from "../../../wire/heartbeat";
import type { AdmittedPeerReport } from "./peer-reports";
import type { NodeRow, RelayedPairRow } from "../../../db/rows";
import { bumpRoutingRevision } from "../state";

/** The least time between two changes of a node's own endpoints that the server takes. */
export const OWN_CHANGE_MS = 30_000;

/** A report's peers, in either form (the full list, or an accepted delta's changes), as paths need them. */
export const pathPeersOf = (peers: ReportedPeer[] | undefined, delta: AdmittedPeerReport | null | undefined): PathReport["peers"] =>
  [...(peers ?? []), ...(delta?.changed ?? [])].map((peer) => ({
    publicKey: peer.publicKey,
    handshakeAt: peer.lastHandshakeAt ? Date.parse(peer.lastHandshakeAt) : null,
    endpoint: peer.endpoint ?? null,
  }));

/**
 * What reports teach (docs/nat.md), worked out outside the writer's queue against the held network: the tracker
 * hears their handshakes, and the endpoints they name (a device's own, and what a public reporter saw of its
 * peers) are changes when they differ from what is stored. Most reports change nothing and queue no write.
 */
export function candidateChangesOf(held: HeldNetwork, tracker: NatTracker, reports: PathReport[], rules: NatRules, now = Date.now()) {
  const changes: CandidateChanges = new Map();
  for (const report of reports) {
    const node = held.nodes.get(report.nodeId);
    if (!node) continue;
    // Only what it says of the network's own nodes: any other key would be memory a reporter fills at will.
    const known = { ...report, peers: report.peers.filter((peer) => held.nodeWithKey(peer.publicKey) !== undefined) };
    tracker.observe(known, now);
    for (const [id, change] of observedCandidates(held, tracker, known, now, rules)) changes.set(id, { ...changes.get(id), ...change });
    // A node that names its own endpoint is reached there: what it says of its LAN changes no config.
    const own = node.endpoint === null ? ownCandidates(node, report.localEndpoints, report.publicHost ?? null) : null;
    // Each change is a routing revision every node of the network follows: a device that changes what it
    // says at every beat is heard at most every OWN_CHANGE_MS (a roaming laptop's next beat brings the rest).
    if (own && now - (tracker.ownChangedAt.get(node.id) ?? 0) >= OWN_CHANGE_MS) {
      tracker.ownChangedAt.set(node.id, now);
      changes.set(node.id, { ...changes.get(node.id), ...own });
    }
  }
  return changes;
}

/**
 * Stores learned endpoints. A change to what configs hand out is a routing change: the node's revision and the
 * network's move, and deltas go out. Not audited: the server learns these from the data plane, nobody asked.
 */
export async function learnCandidates(ctx: WriterContext, networkId: string, changes: CandidateChanges) {
  return storeCandidates(ctx, await ctx.memory.forWrite(ctx.db, networkId), changes);
}

async function storeCandidates(ctx: WriterContext, held: HeldNetwork, changes: CandidateChanges) {
  if (changes.size === 0) return false;
  const { db } = ctx;
  const moving = [...changes.values()].some(changesEndpoints);
  const revision = held.network.routingRevision + (moving ? 1 : 0);
  const updated: NodeRow[] = [];
  for (const [nodeId, change] of changes) {
    const row = held.nodes.get(nodeId);
    if (row) updated.push({ ...row, ...change, ...(changesEndpoints(change) ? { revision } : {}) });
  }
  await commit(
    ctx,
    [
      ...updated.map((row) =>
        db
          .update(nodes)
          .set({
            localEndpoints: row.localEndpoints,
            publicHost: row.publicHost,
            observedEndpoint: row.observedEndpoint,
            observedAt: row.observedAt,
            revision: row.revision,
          })
          .where(eq(nodes.id, row.id)),
      ),
      ...(moving ? [bumpRoutingRevision(db, held.network.id)] : []),
    ],
    { action: "node.endpoints-learned", resourceId: null, networkId: held.network.id, groupId: held.network.groupId },
  );
  for (const row of updated) held.putNode(row);
  if (moving) held.bumped({ routing: true });
  return moving;
}

/**
 * The writer's clock for paths: expired candidates go, then pairs move (nat/decide.ts). Each move is its own
 * routing change with its audit row (actor system). Answers when to look again (null: only a new report can
 * change an answer).
 */
export async function evaluateNatPaths(ctx: WriterContext, networkId: string, tracker: NatTracker, now = Date.now()) {
  const rules = natRules(getConfig(ctx.env));
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  tracker.prune((id) => held.nodes.has(id));
  await storeCandidates(ctx, held, expiredCandidates(held, tracker, now, rules));
  const decided = decidePairs(ctx.memory.topologies.current(held), held, tracker, rules, now);
  for (let start = 0; start < decided.moves.length; start += MOVES_PER_COMMIT)
    await movePairs(ctx, held, decided.moves.slice(start, start + MOVES_PER_COMMIT), now);
  // A second past the next expiry, so that check finds it lapsed.
  const expiry = nextExpiryAt(held, tracker, rules);
  const times = [decided.nextCheckAt, expiry === null ? null : expiry + 1000].filter((time): time is number => time !== null);
  return { moves: decided.moves, nextCheckAt: times.length > 0 ? Math.min(...times) : null };
}

/**
 * The most pair moves one commit carries (two statements each). One device that answers nobody directly strands
 * its pair with every NAT'd node at once: its moves are a few routing revisions, not one per pair.
 */
const MOVES_PER_COMMIT = 100;

/** Pair moves as one routing change (one revision every node follows), with an audit row per pair (actor system). */
async function movePairs(ctx: WriterContext, held: HeldNetwork, moves: PairMove[], now: number) {
  const { db } = ctx;
  const at = new Date(now).toISOString();
  const rows = moves.map(
    (move): RelayedPairRow => ({
      nodeA: move.nodeA,
      nodeB: move.nodeB,
      networkId: held.network.id,
      relayNodeId: move.relayNodeId,
      movedAt: at,
      holdSeconds: move.holdSeconds,
    }),
  );
  const audits = moves.map((move) => {
    const action = move.relayNodeId ? "nat.pair-relayed" : "nat.pair-direct";
    const params = { nodeA: move.nodeA, nodeB: move.nodeB, relay: move.relayNodeId ?? "", reason: move.reason };
    const audit: AuditContext = {
      actor: { type: "system", id: null },
      requestId: newId("req"),
      method: "SYSTEM",
      route: action,
      params,
      status: 200,
    };
    return auditStatement(db, audit, { action, resourceId: move.nodeA, networkId: held.network.id, groupId: held.network.groupId }, at);
  });
  await commit(
    ctx,
    [
      ...rows.map((row) =>
        db
          .insert(relayedPairs)
          .values(row)
          .onConflictDoUpdate({
            target: [relayedPairs.nodeA, relayedPairs.nodeB],
            set: { relayNodeId: sql`excluded.relay_node_id`, movedAt: sql`excluded.moved_at`, holdSeconds: sql`excluded.hold_seconds` },
          }),
      ),
      ...audits,
      bumpRoutingRevision(db, held.network.id),
    ],
    { action: "nat.pairs-moved", resourceId: null, networkId: held.network.id, groupId: held.network.groupId },
  );
  for (const row of rows) held.relayedPairs.set(pairKey(row.nodeA, row.nodeB), row);
  held.bumped({ routing: true });
}
