import { newId } from "../../../lib/ids";
import type { ReportedPeer } from "../../../wire/heartbeat";

/** A tunnel end as stored (the shape GET /tunnels lists, less the network and the peer's node). */
export interface TunnelRow {
  id: string;
  fromNodeId: string;
  peerPublicKey: string;
  lastHandshakeAt: string | null;
  endpoint: string | null;
  rxBytes: number;
  txBytes: number;
  reportedAt: string;
  createdAt: string;
}

/** The store's metered statement runner (hot-store.ts). */
type Run = (query: string, ...bindings: SqlStorageValue[]) => Record<string, SqlStorageValue>[];
type SlotRow = { slot: number; counters: string };

/**
 * A tunnel's moving figures as its reporter last gave them: [lastHandshakeAt, rxBytes, txBytes, reportedAt, endpoint].
 * The endpoint is here only to tell a moved endpoint (which the tunnel row stores) from one heard again.
 */
type CounterEntry = [string | null, number, number, string, string | null];

/** A reporter's entries, by peer key, in slots of at most SLOT_SIZE (hot-schema.ts tunnel_counters). */
type Slots = Map<number, Map<string, CounterEntry>>;

/**
 * Entries a slot holds: a device's 50 tunnels are one row; a gateway's 10,000 are 40 rows of about 33 KB each,
 * inside the 2 MB a Durable Object's SQLite value may hold.
 */
const SLOT_SIZE = 256;

const entryOf = (peer: ReportedPeer, at: string, endpoint: string | null): CounterEntry => [
  peer.lastHandshakeAt,
  peer.rxBytes,
  peer.txBytes,
  at,
  endpoint,
];

/** The figures a row shows, from its entry when the reporter's counters are newer than the row itself. */
const figuresOf = (entry: CounterEntry) => ({
  lastHandshakeAt: entry[0],
  rxBytes: entry[1],
  txBytes: entry[2],
  reportedAt: entry[3],
});

function parseSlots(rows: SlotRow[]): Slots {
  const slots: Slots = new Map();
  for (const row of rows) slots.set(row.slot, new Map(Object.entries(JSON.parse(row.counters) as Record<string, CounterEntry>)));
  return slots;
}

const serialiseSlot = (entries: Map<string, CounterEntry>) => JSON.stringify(Object.fromEntries(entries));

/** The slot holding `key`, if any. */
function slotOf(slots: Slots, key: string): number | undefined {
  for (const [slot, entries] of slots) if (entries.has(key)) return slot;
  return undefined;
}

/** The first slot with room for one more entry (a new one after the last when all are full). */
function slotWithRoom(slots: Slots): number {
  let last = -1;
  for (const [slot, entries] of [...slots].sort((a, b) => a[0] - b[0])) {
    if (entries.size < SLOT_SIZE) return slot;
    last = slot;
  }
  return last + 1;
}

/**
 * A reporter's peers into its rows. A tunnel's moving figures (handshake, bytes) go into the reporter's counter
 * slots (one row per SLOT_SIZE tunnels), so a steady beat writes one row whatever its tunnels; the tunnel row itself
 * is written only when it is new, its endpoint moved or its handshake came or went. `endsFrom`: a full report (or
 * its last page) ends here, and what it never touched (rows and figures older than its start) goes.
 */
export function storeTunnels(run: Run, nodeId: string, at: string, changed: ReportedPeer[], removed: string[], endsFrom: string | null) {
  const slots = parseSlots(run("SELECT slot, counters FROM tunnel_counters WHERE from_node_id = ?", nodeId) as SlotRow[]);
  const dirty = new Set<number>();
  for (const peer of changed) {
    const heard = peer.endpoint ?? null;
    const slot = slotOf(slots, peer.publicKey);
    const entry = slot === undefined ? undefined : slots.get(slot)!.get(peer.publicKey)!;
    // The row is written when it is new, its endpoint moved (an older client says nothing of endpoints: what a newer
    // report said stays) or it first handshook or lost its handshake: applied-configs.ts asks the rows which keys
    // a peer has handshaken with.
    const moved = entry !== undefined && heard !== null && heard !== entry[4];
    const handshook = entry !== undefined && (entry[0] === null) !== (peer.lastHandshakeAt === null);
    if (entry === undefined || moved || handshook) upsertTunnel(run, nodeId, peer, at);
    const into = slot ?? slotWithRoom(slots);
    if (!slots.has(into)) slots.set(into, new Map());
    slots.get(into)!.set(peer.publicKey, entryOf(peer, at, heard ?? entry?.[4] ?? null));
    dirty.add(into);
  }
  for (const key of removed) {
    run("DELETE FROM tunnels WHERE from_node_id = ? AND peer_public_key = ?", nodeId, key);
    const slot = slotOf(slots, key);
    if (slot !== undefined && slots.get(slot)!.delete(key)) dirty.add(slot);
  }
  if (endsFrom !== null) {
    const kept: string[] = [];
    for (const [slot, entries] of slots) {
      for (const [key, entry] of entries) {
        if (entry[3] >= endsFrom) kept.push(key);
        else if (entries.delete(key)) dirty.add(slot);
      }
    }
    run(
      "DELETE FROM tunnels WHERE from_node_id = ? AND peer_public_key NOT IN (SELECT value FROM json_each(?))",
      nodeId,
      JSON.stringify(kept),
    );
  }
  for (const slot of dirty) {
    const entries = slots.get(slot)!;
    if (entries.size === 0) run("DELETE FROM tunnel_counters WHERE from_node_id = ? AND slot = ?", nodeId, slot);
    else
      run(
        `INSERT INTO tunnel_counters (from_node_id, slot, counters) VALUES (?, ?, ?)
         ON CONFLICT (from_node_id, slot) DO UPDATE SET counters = excluded.counters`,
        nodeId,
        slot,
        serialiseSlot(entries),
      );
  }
}

function upsertTunnel(run: Run, fromNodeId: string, peer: ReportedPeer, at: string) {
  run(
    `INSERT INTO tunnels (from_node_id, peer_public_key, id, last_handshake_at, endpoint, rx_bytes, tx_bytes, reported_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (from_node_id, peer_public_key) DO UPDATE SET last_handshake_at = excluded.last_handshake_at,
       endpoint = coalesce(excluded.endpoint, endpoint), rx_bytes = excluded.rx_bytes, tx_bytes = excluded.tx_bytes,
       reported_at = excluded.reported_at`,
    fromNodeId,
    peer.publicKey,
    newId("tun"),
    peer.lastHandshakeAt,
    peer.endpoint ?? null,
    peer.rxBytes,
    peer.txBytes,
    at,
    at,
  );
}

/**
 * Rows as their reporters last gave them: each row's figures from its reporter's counter slots, where it has one
 * (a row imported from D1, or written before the slots, shows its own). `reporters`: the rows' reporters, when
 * they are a few (a page, a node); else every slot is read.
 */
export function withCounters(run: Run, rows: TunnelRow[], reporters?: readonly string[]): TunnelRow[] {
  if (rows.length === 0) return rows;
  const counterRows = (
    reporters
      ? run(
          "SELECT from_node_id AS nodeId, slot, counters FROM tunnel_counters WHERE from_node_id IN (SELECT value FROM json_each(?))",
          JSON.stringify(reporters),
        )
      : run("SELECT from_node_id AS nodeId, slot, counters FROM tunnel_counters")
  ) as (SlotRow & { nodeId: string })[];
  const entries = new Map<string, CounterEntry>();
  for (const row of counterRows) {
    for (const slot of parseSlots([row]).values()) for (const [key, entry] of slot) entries.set(`${row.nodeId} ${key}`, entry);
  }
  return rows.map((row) => {
    const entry = entries.get(`${row.fromNodeId} ${row.peerPublicKey}`);
    return entry ? { ...row, ...figuresOf(entry) } : row;
  });
}
