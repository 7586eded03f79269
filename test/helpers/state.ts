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
    snapshot[name] = name === "nodes" ? rows.map(withoutClockColumns) : rows;
  }
  return snapshot;
}

/** A node's last_seen_at is what its network object's presence clock sets on its own (test/fuzz/snapshot.ts). */
function withoutClockColumns({ last_seen_at: _, ...row }: Record<string, unknown>) {
  return row;
}

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
