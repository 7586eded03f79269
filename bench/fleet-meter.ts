// What the fleet costs the storage: D1 rows as the network writers' meters count them (D1's own meta.rows_written,
// GET /networks/{id}/writer, summed over the fleet's networks), each writer's own SQLite storage (storageBytes),
// the Worker's own D1 rows (GET /__d1-meter, src/dev-d1-meter.ts) and the server's memory (the wrangler dev process
// group's RSS, bench/server-memory.ts).
import type { ApiClient } from "../test/e2e/support/api-client.ts";
import { inParallel } from "./seed.ts";
import { processGroupRssBytes } from "./server-memory.ts";

export interface FleetMeter {
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  /** Rows the writers wrote in their own SQLite (hotRowsWritten: heartbeats, tunnels, presence since issue 30). */
  hotRowsWritten: number;
  /** Device presence transitions the writers wrote to D1 (online, offline): where a fleet's D1 rows come from. */
  presenceTransitions: number;
  /** Each network writer's storageBytes, in network order. */
  storage: number[];
}

export async function fleetMeter(admin: ApiClient, networkIds: string[]): Promise<FleetMeter> {
  const stats = await inParallel(networkIds.length, 8, async (i) => {
    const answer = await admin.get(`/networks/${networkIds[i]}/writer`);
    if (answer.status !== 200) throw new Error(`writer stats of ${networkIds[i]}: ${answer.status} ${answer.text}`);
    return answer.body as {
      statements: number;
      rowsRead: number;
      rowsWritten: number;
      hotRowsWritten?: number;
      storageBytes?: number;
      presenceTransitions?: number;
    };
  });
  const sum = (pick: (s: (typeof stats)[number]) => number) => stats.reduce((total, s) => total + pick(s), 0);
  return {
    statements: sum((s) => s.statements),
    rowsRead: sum((s) => s.rowsRead),
    rowsWritten: sum((s) => s.rowsWritten),
    hotRowsWritten: sum((s) => s.hotRowsWritten ?? 0),
    presenceTransitions: sum((s) => s.presenceTransitions ?? 0),
    storage: stats.map((s) => s.storageBytes ?? Number.NaN),
  };
}

type Rows = Pick<FleetMeter, "statements" | "rowsRead" | "rowsWritten" | "hotRowsWritten" | "presenceTransitions">;

/** The meters' difference over a run: what the run's requests (and the writers' alarms meanwhile) cost. */
export const meterDelta = (after: Rows, before: Rows) => ({
  statements: after.statements - before.statements,
  rowsRead: after.rowsRead - before.rowsRead,
  rowsWritten: after.rowsWritten - before.rowsWritten,
  hotRowsWritten: after.hotRowsWritten - before.hotRowsWritten,
  presenceTransitions: after.presenceTransitions - before.presenceTransitions,
});

/** min / median / max / sum of the writers' storage. */
export function storageSpread(storage: number[]) {
  const sorted = [...storage].sort((a, b) => a - b);
  return {
    min: sorted[0] ?? 0,
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted[sorted.length - 1] ?? 0,
    sum: sorted.reduce((a, b) => a + b, 0),
  };
}

/** The Worker's own D1 use (its requests' binding, metered under DEV_D1_METER=true: src/dev-d1-meter.ts). */
export async function workerMeter(baseUrl: string): Promise<{ statements: number; rowsRead: number; rowsWritten: number }> {
  const answer = await fetch(`${baseUrl}/__d1-meter`);
  if (answer.status !== 200) throw new Error(`GET /__d1-meter: ${answer.status} (is DEV_D1_METER set?)`);
  return (await answer.json()) as { statements: number; rowsRead: number; rowsWritten: number };
}

export const serverRss = (pid: number) => processGroupRssBytes(pid);
