import { and, asc, eq, gt, isNotNull, or, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devices, nodes, tunnelObservations } from "../../../db/schema";
import type { HotStore } from "./hot-store";

const IMPORTED = "importedFromD1At";
/** Tunnel rows read from D1 a statement: a 10,000-node network's rows come over in pages. */
const TUNNELS_PER_READ = 2_000;

/**
 * An existing deployment's hot state moves from D1 into the network's object the first time the object needs
 * it (docs/scale.md "Upgrading"): no downtime, no step to run. Heartbeating nodes' rows (devices' liveness, the
 * peer-report sequence) and every tunnel row come over, then D1's tunnel rows go (nothing writes them any more).
 * A crash between the copy and the mark repeats the copy, which keeps what is already here (INSERT OR IGNORE).
 */
export async function importFromD1(db: Db, hot: HotStore, networkId: string) {
  if (hot.meta(IMPORTED) !== null) return;
  const reported = await db
    .select({
      nodeId: nodes.id,
      lastSeenAt: nodes.lastSeenAt,
      appliedRevision: nodes.appliedRoutingRevision,
      reportedEndpoint: devices.reportedEndpoint,
      peerReportSeq: nodes.peerReportSeq,
      peerResyncFrom: nodes.peerResyncFrom,
    })
    .from(nodes)
    .innerJoin(devices, eq(devices.nodeId, nodes.id))
    .where(and(eq(nodes.networkId, networkId), or(isNotNull(nodes.lastSeenAt), isNotNull(nodes.peerReportSeq))))
    .all();
  for (const row of reported) hot.importNode(row);
  const t = tunnelObservations;
  for (let after: { createdAt: string; id: string } | null = null; ; ) {
    const cursor: SQL | undefined = after
      ? or(gt(t.createdAt, after.createdAt), and(eq(t.createdAt, after.createdAt), gt(t.id, after.id)))
      : undefined;
    const page: (typeof t.$inferSelect)[] = await db
      .select()
      .from(t)
      .where(and(eq(t.networkId, networkId), cursor))
      .orderBy(asc(t.createdAt), asc(t.id))
      .limit(TUNNELS_PER_READ)
      .all();
    for (const row of page) hot.importTunnel(row);
    if (page.length < TUNNELS_PER_READ) break;
    after = page[page.length - 1]!;
  }
  hot.setMeta(IMPORTED, new Date().toISOString());
  await db.delete(tunnelObservations).where(eq(tunnelObservations.networkId, networkId));
}
