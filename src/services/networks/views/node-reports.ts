import type { Env } from "../../../lib/env";
import { unwrap } from "../../../lib/write-result";
import type { NodeHot } from "../../../objects/network/client";
import { networkWriter } from "../../../objects/network/client";

/** A node row as D1 holds it, with the columns heartbeats used to write there. */
interface Reportable {
  id: string;
  networkId: string;
  lastSeenAt: string | null;
  appliedRoutingRevision: number | null;
}

/**
 * What nodes last reported lives in their network's object (objects/network/hot/), not in D1's row: a read
 * that shows last-seen or applied revisions asks each network on the page once, and lays that over the rows.
 * A node with no report there keeps D1's values (gateway nodes before their agent's first report, nodes that
 * never reported).
 */
export async function reportsOf(env: Env, rows: readonly Pick<Reportable, "id" | "networkId">[]): Promise<Map<string, NodeHot>> {
  const byNetwork = new Map<string, string[]>();
  for (const row of rows) byNetwork.set(row.networkId, [...(byNetwork.get(row.networkId) ?? []), row.id]);
  const answers = await Promise.all(
    [...byNetwork].map(([networkId, ids]) => unwrap(networkWriter(env, networkId).readNodeReports(networkId, ids))),
  );
  return new Map(answers.flat().map((report) => [report.nodeId, report]));
}

/** A row with its report laid over it. */
export const withReport = <Row extends Reportable>(row: Row, report: NodeHot | undefined): Row =>
  report ? { ...row, lastSeenAt: report.lastSeenAt, appliedRoutingRevision: report.appliedRevision } : row;

/** One node's row with its report (one call to its network's writer). */
export async function withReportOf<Row extends Reportable>(env: Env, row: Row): Promise<Row> {
  return withReport(row, (await reportsOf(env, [row])).get(row.id));
}

/** The columns reports write (D1's copy of them), as a row read before a write holds them. */
interface ReportedColumns {
  lastSeenAt: string | null;
  appliedRoutingRevision: number | null;
  appliedDnsRevision: number | null;
  applyError: string | null;
}

/**
 * A node the writer answered with after changing it, with the reported columns of the row the route read
 * before the write: the writer holds those as loaded (stale) and its write leaves them alone.
 */
export const keepReported = <Row extends ReportedColumns>(written: Row, before: ReportedColumns): Row => ({
  ...written,
  lastSeenAt: before.lastSeenAt,
  appliedRoutingRevision: before.appliedRoutingRevision,
  appliedDnsRevision: before.appliedDnsRevision,
  applyError: before.applyError,
});
