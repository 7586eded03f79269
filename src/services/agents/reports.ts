import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { networks, nodes } from "../../db/schema";
import { domainError, notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { type PeerReport, replaceObservations } from "../networks/operations/observations";

export interface NodeReport {
  nodeId: string;
  appliedRoutingRevision: number;
  appliedDnsRevision: number | null;
  peers?: PeerReport[];
  /** What the daemon could not apply (it keeps the previous state); absent or null: all applied. */
  error?: string | null;
}

/**
 * A daemon's report on the gateway nodes it runs: applied revisions, last seen and tunnel counters, in
 * one batch. A node of another gateway is "not found"; revisions ahead of the network's are refused.
 * Telemetry: not audited (middleware/audit.ts NOT_AUDITED).
 */
export async function applyReport(db: Db, gatewayId: string, reports: NodeReport[]) {
  const known = await db
    .select({ id: nodes.id, networkId: nodes.networkId, routing: networks.routingRevision, dns: networks.dnsRevision })
    .from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId))
    .where(
      and(
        inArray(
          nodes.id,
          reports.map((r) => r.nodeId),
        ),
        eq(nodes.gatewayId, gatewayId),
      ),
    )
    .all();
  const byId = new Map(known.map((n) => [n.id, n]));
  const now = nowIso();
  const statements = reports.flatMap((r) => {
    const node = byId.get(r.nodeId);
    if (!node) throw notFound(`Node ${r.nodeId} on this gateway`);
    if (r.appliedRoutingRevision > node.routing || (r.appliedDnsRevision ?? 0) > node.dns) {
      throw domainError(`Node ${r.nodeId} reports revisions ahead of the network's (${node.routing}/${node.dns})`);
    }
    return [
      db
        .update(nodes)
        .set({
          appliedRoutingRevision: r.appliedRoutingRevision,
          appliedDnsRevision: r.appliedDnsRevision,
          applyError: r.error ?? null,
          lastSeenAt: now,
        })
        .where(eq(nodes.id, r.nodeId)),
      ...replaceObservations(db, node.networkId, r.nodeId, r.peers, now),
    ];
  });
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  return reports.map((r) => {
    const node = byId.get(r.nodeId)!;
    return {
      nodeId: r.nodeId,
      desiredRoutingRevision: node.routing,
      desiredDnsRevision: node.dns,
      configChanged: r.appliedRoutingRevision !== node.routing || r.appliedDnsRevision !== node.dns,
    };
  });
}
