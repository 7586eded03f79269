import { z } from "@hono/zod-openapi";

export const WriterStatsSchema = z
  .object({
    statements: z.number().int().openapi({ description: "D1 statements the writer ran since it started" }),
    rowsRead: z.number().int().openapi({ description: "Sum of D1's meta.rows_read over them (what D1 bills reads by)" }),
    rowsWritten: z.number().int(),
    loads: z
      .number()
      .int()
      .openapi({ description: "Full loads of the network from D1: one after a start, more only when a change went around the writer" }),
    heldNodes: z.number().int().openapi({ description: "Nodes held in memory" }),
    topologiesKept: z.number().int().openapi({ description: "Routing revisions whose topology is kept, for config reads and deltas" }),
    queueDepth: z
      .number()
      .int()
      .openapi({ description: "Commands queued or running now (0 when idle): what a write arriving now waits behind" }),
    queueTurns: z
      .number()
      .int()
      .openapi({ description: "Turns the writer's queue has given since it started (writes, loads, reads that waited for a commit)" }),
    refusedBeforeTurn: z.number().int().openapi({
      description:
        "Writes refused before they took a turn in the queue: callers the writer does not keep are checked on arrival, so a stranger's writes never hold this network's",
    }),
    hotRowsRead: z
      .number()
      .int()
      .openapi({ description: "Rows the network's hot state (heartbeats, tunnels) read in the object's own SQLite" }),
    hotRowsWritten: z
      .number()
      .int()
      .openapi({ description: "Rows it wrote there (what Durable Objects bill writes by); heartbeats write no D1 row" }),
    batches: z.number().int().openapi({ description: "D1 batches of concurrent writes committed together" }),
    combinedWrites: z.number().int().openapi({ description: "Writes those batches carried (combinedWrites / batches: writes per batch)" }),
    retriedAlone: z
      .number()
      .int()
      .openapi({ description: "Writes run again on their own after a combined batch failed (a refused write among them)" }),
    storageBytes: z.number().int().openapi({ description: "Bytes of the writer's own SQLite storage (ctx.storage.sql.databaseSize)" }),
    keptCallers: z.number().int().openapi({
      description:
        "Callers (user, session) a committed write proved a manager of the network: their next writes skip the read that checks it; each write's batch still re-checks",
    }),
    presenceTransitions: z.number().int().openapi({
      description:
        "Device presence transitions (online, offline) the object's checks wrote to D1 since it started: D1 rows a fleet costs when devices come and go",
    }),
  })
  .openapi("NetworkWriterStats");
