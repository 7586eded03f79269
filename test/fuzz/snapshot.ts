import { env } from "cloudflare:workers";
import { CLOCK_WRITTEN } from "../helpers/state";

/**
 * Columns a rejected request may legitimately touch. Consuming an enrolment key and giving the use back
 * (an enrolment that then fails) leaves `used_count` as it was but moves `updated_at`; every call with a
 * valid agent credential refreshes the agent's `last_seen_at` (a SCIM token its `last_used_at`) before the route validates anything. Beside them,
 * what the objects' clocks write (CLOCK_WRITTEN).
 */
const VOLATILE: Record<string, readonly string[]> = {
  enrolment_keys: ["updated_at"],
  agents: ["last_seen_at"],
  // Like an agent's: a request with a live SCIM token stamps it (to the minute) before the route validates anything.
  scim_tokens: ["last_used_at"],
  ...CLOCK_WRITTEN.columns,
};

/**
 * Bookkeeping tables that are not API data. `metric_counters` counts refusals (failed sign-ins for GET /metrics,
 * docs/metrics.md): a refused login is exactly what writes it. And the tables the objects' clocks write.
 */
const SKIP = /^(_cf_|d1_migrations$|sqlite_|metric_counters$)/;
const skipped = (table: string) => SKIP.test(table) || CLOCK_WRITTEN.tables.includes(table);

let statements: { table: string; sql: string }[] | undefined;

async function buildStatements() {
  const tables = await env.DB.prepare("select name from sqlite_master where type = 'table' order by name").all<{ name: string }>();
  const out: { table: string; sql: string }[] = [];
  for (const { name } of tables.results) {
    if (skipped(name)) continue;
    const columns = await env.DB.prepare(`select name from pragma_table_info('${name}') order by cid`).all<{ name: string }>();
    const kept = columns.results.map((c) => c.name).filter((c) => !VOLATILE[name]?.includes(c));
    const row = kept.map((c) => `quote("${c}")`).join(" || ',' || ");
    // Full row content, in rowid order: a count alone would miss an update that a 4xx left behind.
    out.push({
      table: name,
      sql: `select count(*) as n, group_concat(r, char(10)) as rows from (select ${row} as r from "${name}" order by rowid)`,
    });
  }
  return out;
}

export type Snapshot = Map<string, string>;

/** Every API table's rows, one D1 batch. */
export async function snapshot(): Promise<Snapshot> {
  statements ??= await buildStatements();
  const results = await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql)));
  const out: Snapshot = new Map();
  results.forEach((result, i) => {
    const row = (result.results as { n: number; rows: string | null }[])[0]!;
    out.set(statements![i]!.table, `${row.n}\n${row.rows ?? ""}`);
  });
  return out;
}

/** Tables whose content differs, for a readable failure message. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  return [...after.keys()].filter((table) => before.get(table) !== after.get(table));
}

/**
 * Waits until background work of earlier requests (audit records and notification events written in
 * waitUntil after a 2xx) has landed: two snapshots 25 ms apart agree. Setup that goes through
 * exports.default.fetch cannot await that work, and a late write would look like a change made by
 * the next, rejected, request.
 */
export async function settle(): Promise<void> {
  let previous = await snapshot();
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const current = await snapshot();
    if (changedTables(previous, current).length === 0) return;
    previous = current;
  }
  throw new Error("D1 kept changing for a second after setup");
}
