import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { insertWhere } from "../../../db/insert-where";
import { preparedPer } from "../../../db/prepared";
import { forwardingProbes, nodes } from "../../../db/schema";
import type { ProbeResult } from "../../../wire/agent-report";

/** Where each reporting node's results go: the node probed across and the prober, after the checks below. */
interface Accepted {
  ok: boolean;
  proberNodeId: string;
  networkId: string;
}

/**
 * The probe results that count. A result counts only when the server asked the reporting node to run
 * exactly that probe (`assigned`: the probes each node's desired state names now, from its network's
 * writer): the same node across the same member to the same target. Anything else is ignored, not
 * refused: another gateway's agent reporting across a member (forcing or cancelling a failover), a
 * target nobody asked about, a member of another network, and also an honest agent whose desired state
 * is a revision behind (probes across the member it held before a failover), whose report must still
 * land or its own nodes would go stale.
 */
export function acceptedProbes(
  reports: { nodeId: string; probes?: ProbeResult[] }[],
  reporters: ReadonlyMap<string, { networkId: string }>,
  assigned: ReadonlyMap<string, readonly { acrossNodeId: string; target: string }[]>,
) {
  const byAcross = new Map<string, Accepted>();
  for (const report of reports) {
    const asked = assigned.get(report.nodeId) ?? [];
    const networkId = reporters.get(report.nodeId)?.networkId;
    if (asked.length === 0 || networkId === undefined) continue;
    for (const probe of report.probes ?? []) {
      if (!asked.some((one) => one.acrossNodeId === probe.acrossNodeId && one.target === probe.target)) continue;
      const seen = byAcross.get(probe.acrossNodeId);
      // One prober is asked across a member (the forest rule gives a pool one hop before it); keep the first.
      if (seen && seen.proberNodeId !== report.nodeId) continue;
      byAcross.set(probe.acrossNodeId, { ok: (seen?.ok ?? false) || probe.ok, proberNodeId: report.nodeId, networkId });
    }
  }
  return byAcross;
}

/** The members probed across with their runs, by ids given as JSON: prepared once (db/prepared.ts), bound per report. */
const probedMembers = preparedPer((db) =>
  db
    .select({
      id: nodes.id,
      networkId: nodes.networkId,
      failStreak: forwardingProbes.failStreak,
      proberNodeId: forwardingProbes.proberNodeId,
    })
    .from(nodes)
    .leftJoin(forwardingProbes, eq(forwardingProbes.nodeId, nodes.id))
    .where(sql`${nodes.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`)
    .prepare(),
);

/**
 * The probe part of a gateway report: per node probed across, the run of failed reports (a report in which
 * every counted probe across it failed adds one; a report with any success resets it to 0, "healthy again
 * after one success"). Only results `acceptedProbes` keeps count, so only the assigned prober moves a run.
 * Networks where a run crossed `threshold` or was cleared from above it are returned, for their writers
 * to evaluate their pools at once.
 */
export async function probeStatements(
  db: Db,
  reports: { nodeId: string; probes?: ProbeResult[] }[],
  reporters: ReadonlyMap<string, { networkId: string }>,
  assigned: ReadonlyMap<string, readonly { acrossNodeId: string; target: string }[]>,
  now: string,
  threshold: number,
) {
  const okByAcross = acceptedProbes(reports, reporters, assigned);
  if (okByAcross.size === 0) return { statements: [], networksToEvaluate: [] as string[] };
  const across = await probedMembers(db).all({ ids: JSON.stringify([...okByAcross.keys()]) });
  const networksToEvaluate = new Set<string>();
  const statements = across
    .filter((node) => okByAcross.get(node.id)!.networkId === node.networkId)
    .flatMap((node) => {
      const result = okByAcross.get(node.id)!;
      // A run another prober made (before the assignment moved) is not this prober's to continue.
      const before = node.proberNodeId === result.proberNodeId ? (node.failStreak ?? 0) : 0;
      const after = result.ok ? 0 : before + 1;
      if ((before < threshold && after >= threshold) || (before >= threshold && after === 0)) networksToEvaluate.add(node.networkId);
      // A run that stays as it was writes nothing: no row and still 0 (a healthy member probed again), or this
      // prober's own row at the same count. A row without this prober (an older release's) takes it.
      const unchanged = node.failStreak === null ? after === 0 : after === node.failStreak && node.proberNodeId === result.proberNodeId;
      if (unchanged) return [];
      const row = { nodeId: node.id, networkId: node.networkId, failStreak: after, checkedAt: now, proberNodeId: result.proberNodeId };
      // Written only while the node exists: a node removed meanwhile must not fail the report's batch.
      return insertWhere(db, forwardingProbes, [row], sql`exists (select 1 from nodes where id = ${node.id})`).onConflictDoUpdate({
        target: forwardingProbes.nodeId,
        set: { failStreak: sql`excluded.fail_streak`, checkedAt: sql`excluded.checked_at`, proberNodeId: sql`excluded.prober_node_id` },
      });
    });
  return { statements, networksToEvaluate: [...networksToEvaluate] };
}
