import { eq, sql } from "drizzle-orm";
import { nodes, relayedPairs } from "../../../db/schema";
import { getConfig } from "../../../lib/env";
import { newId } from "../../../lib/ids";
import type { AuditContext } from "../../audit/audit-trail";
import { commit, type WriterContext } from "../commit";
import { type HeldNetwork, pairKey } from "../memory/held-network";
import { decidePairs, type PairMove } from "../nat/decide";
import { type CandidateChanges, changesEndpoints, expiredCandidates, observedCandidates, ownCandidates } from "../nat/learn";
import { type NatRules, natRules } from "../nat/rules";
import type { NatTracker, PathObservation } from "../nat/tracker";
import { bumpRoutingRevision, type NodeRow, type RelayedPairRow } from "../state";

/** A report's path facts plus, from a device's heartbeat, its own endpoints (docs/nat.md). */
export interface PathReport extends PathObservation {
  localEndpoints?: string[];
  publicHost?: string | null;
}

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
    tracker.observe(report, now);
    for (const [id, change] of observedCandidates(held, tracker, report, now, rules)) changes.set(id, { ...changes.get(id), ...change });
    const own = ownCandidates(node, report.localEndpoints, report.publicHost ?? null);
    if (own) changes.set(node.id, { ...changes.get(node.id), ...own });
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
  await storeCandidates(ctx, held, expiredCandidates(held, tracker, now, rules));
  const { moves, nextCheckAt } = decidePairs(ctx.memory.topologies.current(held), held, tracker, rules, now);
  for (const move of moves) await movePair(ctx, held, move, now);
  return { moves, nextCheckAt };
}

async function movePair(ctx: WriterContext, held: HeldNetwork, move: PairMove, now: number) {
  const { db } = ctx;
  const row: RelayedPairRow = {
    nodeA: move.nodeA,
    nodeB: move.nodeB,
    networkId: held.network.id,
    relayNodeId: move.relayNodeId,
    movedAt: new Date(now).toISOString(),
    holdSeconds: move.holdSeconds,
  };
  const action = move.relayNodeId ? "nat.pair-relayed" : "nat.pair-direct";
  const audit: AuditContext = {
    actor: { type: "system", id: null },
    requestId: newId("req"),
    method: "SYSTEM",
    route: action,
    params: { nodeA: move.nodeA, nodeB: move.nodeB, relay: move.relayNodeId ?? "", reason: move.reason },
    status: 200,
  };
  await commit(
    { ...ctx, audit },
    [
      db
        .insert(relayedPairs)
        .values(row)
        .onConflictDoUpdate({
          target: [relayedPairs.nodeA, relayedPairs.nodeB],
          set: { relayNodeId: sql`excluded.relay_node_id`, movedAt: sql`excluded.moved_at`, holdSeconds: sql`excluded.hold_seconds` },
        }),
      bumpRoutingRevision(db, held.network.id),
    ],
    { action, resourceId: move.nodeA, networkId: held.network.id, groupId: held.network.groupId },
  );
  held.relayedPairs.set(pairKey(move.nodeA, move.nodeB), row);
  held.bumped({ routing: true });
}
