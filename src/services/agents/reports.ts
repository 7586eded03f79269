import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { networks, nodes } from "../../db/schema";
import { type Env, getConfig } from "../../lib/env";
import { ApiError, domainError, notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { describeForLog } from "../../lib/log";
import { unwrap } from "../../lib/write-result";
import type { TunnelObservation } from "../networks/operations/observations";
import type { PeerDelta } from "../networks/operations/peer-reports";
import { type ProbeResult, probeStatements } from "../networks/pools/probe-reports";
import { networkWriter } from "../networks/writer/network-writer";
import { sendTunnelReports } from "./path-reports";

export interface NodeReport {
  nodeId: string;
  appliedRoutingRevision: number;
  appliedDnsRevision: number | null;
  peers?: TunnelObservation[];
  /** The delta form of peers (networks/operations/peer-reports.ts). */
  peerReport?: PeerDelta;
  /** What the daemon could not apply (it keeps the previous state); absent or null: all applied. */
  error?: string | null;
  /** Forwarding probes the desired state asked this node to run (gateway pools). */
  probes?: ProbeResult[];
}

/**
 * A daemon's report on the gateway nodes it runs: applied revisions, last seen and probes in one D1 batch
 * (the pools' health reads them there), then the tunnels to each network's writer, whose hot state keeps them
 * (path-reports.ts). A node of another gateway is "not found"; revisions ahead of the network's are refused.
 * Telemetry: not audited (middleware/audit.ts NOT_AUDITED).
 */
export async function applyReport(env: Env, db: Db, gatewayId: string, reports: NodeReport[]) {
  const known = await db
    .select({
      id: nodes.id,
      networkId: nodes.networkId,
      endpoint: nodes.endpoint,
      lastSeenAt: nodes.lastSeenAt,
      routing: networks.routingRevision,
      dns: networks.dnsRevision,
    })
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
  const statements = reports.map((r) => {
    const node = byId.get(r.nodeId);
    if (!node) throw notFound(`Node ${r.nodeId} on this gateway`);
    if (r.appliedRoutingRevision > node.routing || (r.appliedDnsRevision ?? 0) > node.dns) {
      throw domainError(`Node ${r.nodeId} reports revisions ahead of the network's (${node.routing}/${node.dns})`);
    }
    return db
      .update(nodes)
      .set({
        appliedRoutingRevision: r.appliedRoutingRevision,
        appliedDnsRevision: r.appliedDnsRevision,
        applyError: r.error ?? null,
        lastSeenAt: now,
      })
      .where(eq(nodes.id, r.nodeId));
  });
  const config = getConfig(env);
  const assigned = await assignedProbes(env, reports, byId);
  const probes = await probeStatements(db, reports, byId, assigned, now, config.POOL_PROBE_FAILURES);
  const all = [...statements, ...probes.statements];
  await db.batch(all as [(typeof all)[number], ...typeof all]);
  // A node heard again after it went stale may be the healthy member a pool waits for: evaluate now, not at the next tick.
  const staleMs = config.POOL_STALE_SECONDS * 1000;
  const heardAgain = known.filter((node) => node.lastSeenAt === null || Date.parse(now) - Date.parse(node.lastSeenAt) > staleMs);
  await evaluatePoolsOf(env, new Set([...probes.networksToEvaluate, ...heardAgain.map((node) => node.networkId)]));
  const peerReports = await sendTunnelReports(
    env,
    reports.map((r) => {
      const { networkId, endpoint } = byId.get(r.nodeId)!;
      const report = {
        nodeId: r.nodeId,
        networkId,
        appliedRevision: r.appliedRoutingRevision,
        endpoint: null,
        isPublic: endpoint !== null,
        at: now,
      };
      return { ...report, ...(r.peers ? { peers: r.peers } : {}), ...(r.peerReport ? { peerReport: r.peerReport } : {}) };
    }),
  );
  return reports.map((r) => {
    const node = byId.get(r.nodeId)!;
    return {
      nodeId: r.nodeId,
      desiredRoutingRevision: node.routing,
      desiredDnsRevision: node.dns,
      configChanged: r.appliedRoutingRevision !== node.routing || r.appliedDnsRevision !== node.dns,
      ...(r.peerReport ? { peerReport: peerReports.get(r.nodeId)! } : {}),
    };
  });
}

/**
 * What the reporting nodes that sent probe results were asked to probe, from their networks' writers
 * (the held network: no D1 read beyond its revision). Only reports with probes cost a call.
 */
async function assignedProbes(env: Env, reports: NodeReport[], reporters: ReadonlyMap<string, { networkId: string }>) {
  const byNetwork = new Map<string, string[]>();
  for (const report of reports) {
    if (!report.probes?.length) continue;
    const { networkId } = reporters.get(report.nodeId)!;
    byNetwork.set(networkId, [...(byNetwork.get(networkId) ?? []), report.nodeId]);
  }
  const answers = await Promise.all(
    [...byNetwork].map(([networkId, nodeIds]) =>
      unwrap(networkWriter(env, networkId).readProbes(networkId, nodeIds))
        // A network deleted meanwhile asks for no probes.
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.code === "not_found") return [];
          throw error;
        }),
    ),
  );
  return new Map(answers.flat().map((entry) => [entry.nodeId, entry.probes]));
}

/** Asks each network's writer to evaluate its pools (it returns at once when the network has none). */
async function evaluatePoolsOf(env: Env, networkIds: Set<string>) {
  await Promise.all(
    [...networkIds].map((networkId) =>
      unwrap(networkWriter(env, networkId).evaluatePools(networkId))
        // The report itself is stored; the writer's clock evaluates again within seconds.
        .catch((error: unknown) => console.error(JSON.stringify({ background: "pool-evaluation", networkId, ...describeForLog(error) }))),
    ),
  );
}
