import { eq, sql } from "drizzle-orm";
import { nodes, relayedPairs } from "../../../db/schema";
import { getConfig } from "../../../lib/env";
import { newId } from "../../../lib/ids";
import type { AuditContext } from "../../audit/audit-trail";
import { commit, type WriterContext } from "../commit";
import { type HeldNetwork, pairKey } from "../memory/held-network";
import { decidePairs, type PairMove } from "../nat/decide";
import { type CandidateChanges, changesEndpoints, expiredCandidates, nextExpiryAt, observedCandidates, ownCandidates } from "../nat/learn";
import { type NatRules, natRules } from "../nat/rules";
import type { NatTracker, PathObservation } from "../nat/tracker";
import { bumpRoutingRevision, type NodeRow, type RelayedPairRow } from "../state";

/** The least time between two changes of a node's own endpoints that the server takes. */
export const OWN_CHANGE_MS = 30_000;

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
  for (const move of decided.moves) await movePair(ctx, held, move, now);
  // A second past the next expiry, so that check finds it lapsed.
  const expiry = nextExpiryAt(held, tracker, rules);
  const times = [decided.nextCheckAt, expiry === null ? null : expiry + 1000].filter((time): time is number => time !== null);
  return { moves: decided.moves, nextCheckAt: times.length > 0 ? Math.min(...times) : null };
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
