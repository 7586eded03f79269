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
  /** Bytes of the object's own SQLite storage (ctx.storage.sql.databaseSize). */
  storageBytes: number;
}
