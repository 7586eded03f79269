import type { HotStore } from "../hot/hot-store";
import type { WriteRunner } from "./write-runner";

/** A writer's running totals (D1 as it reports them) and what it holds: for tests, the benchmark and operators. */
export interface WriterStats {
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  /** Full loads of the network from D1 (a restart, or a change that went around the writer). */
  loads: number;
  heldNodes: number;
  topologiesKept: number;
  /** Writes (and loads) queued or running now: what a write arriving now waits behind. */
  queueDepth: number;
  /** Turns the queue has given since the object started (writes, loads, reads that waited for a commit). */
  queueTurns: number;
  /** Writes refused before they took a turn: callers the writer does not keep, checked on arrival (write-authority.ts). */
  refusedBeforeTurn: number;
  /** Rows of the object's own SQLite its hot state read and wrote (objects/network/hot/), as Durable Objects bill them. */
  hotRowsRead: number;
  hotRowsWritten: number;
  /** D1 batches of writes committed together, the writes they carried, and writes run again alone (combined-commits.ts). */
  batches: number;
  combinedWrites: number;
  retriedAlone: number;
  /** Bytes of the object's own SQLite storage (ctx.storage.sql.databaseSize). */
  storageBytes: number;
  /** Callers whose authority a committed batch proved: their writes skip the read that checks it (kept-authority.ts). */
  keptCallers: number;
  /** Presence transitions the object's checks wrote to D1 (clocks/presence-clock.ts): a fleet's D1 rows when its devices come and go. */
  presenceTransitions: number;
}

/** What `stats()` answers: the runner's D1 meter, memory and queue, the combined batches, the hot state's rows. */
export function statsOf(writes: WriteRunner, hot: HotStore, storageBytes: number, presenceTransitions: number): WriterStats {
  const combined = writes.combined?.counts ?? { batches: 0, combinedWrites: 0, retriedAlone: 0 };
  return {
    ...writes.meter,
    ...writes.memory.stats(),
    queueDepth: writes.queue.depth,
    queueTurns: writes.queue.turns,
    refusedBeforeTurn: writes.refusedBeforeTurn,
    ...combined,
    hotRowsRead: hot.meter.rowsRead,
    hotRowsWritten: hot.meter.rowsWritten,
    storageBytes,
    keptCallers: writes.kept.size,
    presenceTransitions,
  };
}
