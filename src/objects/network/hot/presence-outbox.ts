import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { insertWhere } from "../../../db/insert-where";
import { devices, networkHotStats, networks, nodePresence, nodes } from "../../../db/schema";
import { eventStatements } from "../../../services/notifications/emit";
import type { HotStore } from "./hot-store";
import type { PresenceChange } from "./presence-judge";
import type { HotStats } from "./presence-stats";
import type { PresenceStore } from "./presence-store";

const IMPORTED = "presenceImportedFromD1At";
/** D1 binds at most 100 parameters a statement. */
const IDS_PER_READ = 90;
/** Transitions a D1 batch carries (each about four statements): well inside D1's limits on a batch. */
export const TRANSITIONS_PER_BATCH = 40;

/**
 * Before the object judged its device nodes, the minute cron did, into D1's node_presence: the object takes
 * those verdicts and drift clocks over once (so nothing already announced is announced again), then owns them.
 */
export async function importPresence(db: Db, hot: HotStore, store: PresenceStore, networkId: string) {
  if (hot.meta(IMPORTED) !== null) return;
  const rows = await db
    .select({
      nodeId: nodePresence.nodeId,
      state: nodePresence.state,
      changedAt: nodePresence.changedAt,
      behindSince: nodePresence.behindSince,
      driftNotifiedRevision: nodePresence.driftNotifiedRevision,
    })
    .from(nodePresence)
    .innerJoin(nodes, eq(nodes.id, nodePresence.nodeId))
    .where(and(eq(nodes.networkId, networkId), isNotNull(nodes.deviceId)))
    .all();
  const held = store.rows();
  for (const row of rows) if (!held.has(row.nodeId)) store.put(row);
  hot.setMeta(IMPORTED, new Date().toISOString());
}

/** Who owns each device node among `nodeIds` (their events reach only the owner's readers): one read per 90. */
export async function deviceOwners(db: Db, nodeIds: string[]) {
  const owners = new Map<string, string | null>();
  for (let start = 0; start < nodeIds.length; start += IDS_PER_READ) {
    const rows = await db
      .select({ nodeId: devices.nodeId, userId: devices.userId })
      .from(devices)
      .where(inArray(devices.nodeId, nodeIds.slice(start, start + IDS_PER_READ)))
      .all();
    for (const row of rows) if (row.nodeId) owners.set(row.nodeId, row.userId);
  }
  return owners;
}

/**
 * One transition's D1 statements: its events (deduplicated by key), the node_presence row the directory keeps,
 * and nodes.last_seen_at set to the beat the verdict rests on, so D1's copy reads "last seen as of the last
 * transition". Guarded by the node's row: a node removed meanwhile gets no presence row (its events are harmless).
 */
export function transitionStatements(db: Db, change: PresenceChange, ownerId: string | null, at: string) {
  const { row } = change;
  const values = {
    state: row.state,
    changedAt: row.changedAt,
    behindSince: row.behindSince,
    driftNotifiedRevision: row.driftNotifiedRevision,
    updatedAt: at,
  };
  const built = change.events.map((event) => eventStatements(db, { ...event, device: { ownerId } }, at));
  return {
    events: { ids: built.map((event) => event.id), statements: built.flatMap((event) => event.statements) },
    writes: [
      insertWhere(
        db,
        nodePresence,
        { nodeId: row.nodeId, ...values },
        sql`exists (select 1 from ${nodes} where ${nodes.id} = ${row.nodeId})`,
      ).onConflictDoUpdate({ target: nodePresence.nodeId, set: values }),
      db.update(nodes).set({ lastSeenAt: change.lastSeenAt }).where(eq(nodes.id, row.nodeId)),
    ],
  };
}

/** The network's /metrics row (db/schema/network-hot-stats.ts), written while the network exists. */
export function statsStatement(db: Db, networkId: string, stats: HotStats, computedAt: string) {
  const values = { ...stats, computedAt };
  return insertWhere(
    db,
    networkHotStats,
    { networkId, ...values },
    sql`exists (select 1 from ${networks} where ${networks.id} = ${networkId})`,
  ).onConflictDoUpdate({ target: networkHotStats.networkId, set: values });
}
