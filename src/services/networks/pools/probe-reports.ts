import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { insertWhere } from "../../../db/insert-where";
import { forwardingProbes, nodes } from "../../../db/schema";

/** One probe result from a report: did `target` answer over the route through `acrossNodeId`. */
export interface ProbeResult {
  acrossNodeId: string;
  target: string;
  ok: boolean;
}

/**
 * The probe part of a gateway report: per node probed across, the run of failed reports (a report in which
 * every probe across it failed adds one; a report with any success resets it to 0, "healthy again after
 * one success"). Only nodes of the reporter's own network count. Networks where a run crossed `threshold`
 * or was cleared from above it are returned, for their writers to evaluate their pools at once.
 */
export async function probeStatements(
  db: Db,
  reports: { nodeId: string; probes?: ProbeResult[] }[],
  reporters: ReadonlyMap<string, { networkId: string }>,
  now: string,
  threshold: number,
) {
  const okByAcross = new Map<string, boolean>();
  const networkOfReporter = new Map<string, string>();
  const proberOf = new Map<string, string>();
  for (const report of reports) {
    for (const probe of report.probes ?? []) {
      okByAcross.set(probe.acrossNodeId, (okByAcross.get(probe.acrossNodeId) ?? false) || probe.ok);
      networkOfReporter.set(probe.acrossNodeId, reporters.get(report.nodeId)!.networkId);
      proberOf.set(probe.acrossNodeId, report.nodeId);
    }
  }
  if (okByAcross.size === 0) return { statements: [], networksToEvaluate: [] as string[] };
  const across = await db
    .select({ id: nodes.id, networkId: nodes.networkId, failStreak: forwardingProbes.failStreak })
    .from(nodes)
    .leftJoin(forwardingProbes, eq(forwardingProbes.nodeId, nodes.id))
    .where(inArray(nodes.id, [...okByAcross.keys()]))
    .all();
  const networksToEvaluate = new Set<string>();
  const statements = across
    .filter((node) => networkOfReporter.get(node.id) === node.networkId)
    .map((node) => {
      const before = node.failStreak ?? 0;
      const after = okByAcross.get(node.id) ? 0 : before + 1;
      if ((before < threshold && after >= threshold) || (before >= threshold && after === 0)) networksToEvaluate.add(node.networkId);
      const row = { nodeId: node.id, networkId: node.networkId, failStreak: after, checkedAt: now, proberNodeId: proberOf.get(node.id)! };
      // Written only while the node exists: a node removed meanwhile must not fail the report's batch.
      return insertWhere(db, forwardingProbes, [row], sql`exists (select 1 from nodes where id = ${node.id})`).onConflictDoUpdate({
        target: forwardingProbes.nodeId,
        set: { failStreak: sql`excluded.fail_streak`, checkedAt: sql`excluded.checked_at`, proberNodeId: sql`excluded.prober_node_id` },
      });
    });
  return { statements, networksToEvaluate: [...networksToEvaluate] };
}
