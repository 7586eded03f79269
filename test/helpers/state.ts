import { env } from "cloudflare:workers";

/** The domain tables a refused write could touch (audit, sessions and presence are left out: reads write those). */
export type Table =
  | "users"
  | "groups"
  | "memberships"
  | "invites"
  | "networks"
  | "nodes"
  | "devices"
  | "routing_policies"
  | "dns_records"
  | "regions"
  | "gateways"
  | "gateway_assignments"
  | "gateway_pools"
  | "agents"
  | "agent_enrolment_tokens"
  | "enrolment_keys"
  | "admin_settings"
  | "notification_channels"
  | "notification_deliveries";

/**
 * Every row of the given tables, in a stable order: the state to compare before and after a refused
 * write (see expectUnchanged in ./expect-error). Files share one workerd and its D1 (test/suites.ts), so rows of
 * other tests and earlier files are included; they do not change while one test awaits its own requests.
 */
export async function tables(...names: Table[]) {
  const snapshot: Record<string, Record<string, unknown>[]> = {};
  for (const name of names) {
    const rows = (await env.DB.prepare(`SELECT * FROM ${name} ORDER BY rowid`).all<Record<string, unknown>>()).results;
    const clockColumns = CLOCK_WRITTEN.columns[name] ?? [];
    snapshot[name] = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !clockColumns.includes(column))));
  }
  return snapshot;
}

/**
 * What the network objects' presence clocks and the cron write on their own, never a request: with files sharing
 * one D1 (test/suites.ts), an earlier file's objects go on writing these while a later file's write is refused, so
 * refused-write comparisons leave them out (here and in test/fuzz/snapshot.ts).
 */
export const CLOCK_WRITTEN: { tables: readonly string[]; columns: Readonly<Record<string, readonly string[]>> } = {
  tables: ["network_hot_stats", "node_presence"],
  columns: { nodes: ["last_seen_at"] },
};

/** A state reader for expectUnchanged: `expectUnchanged(rowsOf("networks", "nodes"), () => …)`. */
export const rowsOf =
  (...names: Table[]) =>
  () =>
    tables(...names);

/** One count read straight from D1 (`select count(*) as n ...`). */
export const countRows = async (query: string, ...binds: unknown[]) =>
  (await env.DB.prepare(query)
    .bind(...binds)
    .first<{ n: number }>())!.n;

/** A network's routing and DNS revisions as D1 holds them. */
export const revisionsOf = (networkId: string) =>
  env.DB.prepare("select routing_revision as routing, dns_revision as dns from networks where id = ?")
    .bind(networkId)
    .first<{ routing: number; dns: number }>()
    .then((row) => row!);
