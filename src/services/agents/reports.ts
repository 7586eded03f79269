import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { preparedPer } from "../../db/prepared";
import { networks, nodes } from "../../db/schema";
import { type Env, getConfig } from "../../lib/env";
import { ApiError, domainError, notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { describeForLog } from "../../lib/log";
import { unwrap } from "../../lib/write-result";
import type { AgentNodeReport } from "../../wire/agent-report";
import { probeStatements } from "../networks/pools/probe-reports";
import { livenessRefreshSeconds } from "../networks/pools/vitals";
import { networkWriter } from "../../objects/network/client";
import { effectiveSettings, settingsFromRow, settingsQuery } from "../settings/settings";
import { sendTunnelReports } from "./path-reports";

/** The reported nodes of this gateway with their networks' revisions, by ids given as JSON. */
const reportedNodes = preparedPer((db) =>
  db
    .select({
      id: nodes.id,
      networkId: nodes.networkId,
      endpoint: nodes.endpoint,
      lastSeenAt: nodes.lastSeenAt,
      appliedRoutingRevision: nodes.appliedRoutingRevision,
      appliedDnsRevision: nodes.appliedDnsRevision,
      applyError: nodes.applyError,
      routing: networks.routingRevision,
      dns: networks.dnsRevision,
    })
    .from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId))
    .where(
      and(sql`${nodes.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`, eq(nodes.gatewayId, sql.placeholder("gatewayId"))),
    )
    .prepare(),
);
const settingsRead = preparedPer((db) => settingsQuery(db).prepare());

/**
 * A daemon's report on the gateway nodes it runs. Each report's time, applied revisions and tunnels go to
 * each network's writer, whose hot state keeps them (path-reports.ts). D1 keeps the directory's copy, written
 * only when it changes: a node's applied revisions or error, its last-seen once `livenessRefreshSeconds` old
 * (the crons read it), a probe run that moved. So a steady report writes no D1 row. A node of another gateway
 * is "not found"; revisions ahead of the network's are refused. Telemetry: not audited (middleware/audit.ts
 * NOT_AUDITED).
 */
export async function applyReport(env: Env, db: Db, gatewayId: string, reports: AgentNodeReport[]) {
  // With the settings row, side by side: the offline threshold in force decides how fresh D1 stays. Both prepared
  // once (db/prepared.ts): building them per report was a tenth of its CPU (bench/cpu-profile.ts).
  const [known, settingsRow] = await Promise.all([
    reportedNodes(db).all({ ids: JSON.stringify(reports.map((r) => r.nodeId)), gatewayId }),
    settingsRead(db).get(),
  ]);
  const byId = new Map(known.map((n) => [n.id, n]));
  const now = nowIso();
  for (const r of reports) {
    const node = byId.get(r.nodeId);
    if (!node) throw notFound(`Node ${r.nodeId} on this gateway`);
    if (r.appliedRoutingRevision > node.routing || (r.appliedDnsRevision ?? 0) > node.dns) {
      throw domainError(`Node ${r.nodeId} reports revisions ahead of the network's (${node.routing}/${node.dns})`);
    }
  }
  const config = getConfig(env);
  const offline = effectiveSettings(env, settingsFromRow(settingsRow).settings).offlineAfterSeconds;
  const refreshMs = livenessRefreshSeconds({ ...config, OFFLINE_AFTER_SECONDS: offline }) * 1000;
  const directory = directoryUpdates(db, reports, byId, now, refreshMs);
  const assigned = await assignedProbes(env, reports, byId);
  const probes = await probeStatements(db, reports, byId, assigned, now, config.POOL_PROBE_FAILURES);
  const all = [...directory, ...probes.statements];
  if (all.length > 0) await db.batch(all as [(typeof all)[number], ...typeof all]);
  const answers = await sendTunnelReports(
    env,
    reports.map((report) => {
      const { networkId, endpoint } = byId.get(report.nodeId)!;
      return { networkId, received: { report, at: now, isPublic: endpoint !== null } };
    }),
  );
  // A node heard again after it went stale may be the healthy member a pool waits for: evaluate now, not at the
  // next tick (after the writer holds this report, which the evaluation reads).
  const staleMs = config.POOL_STALE_SECONDS * 1000;
  const heardAgain = reports.filter((r) => {
    const before = answers.get(r.nodeId)?.seenBefore ?? null;
    return before === null || Date.parse(now) - Date.parse(before) > staleMs;
  });
  await evaluatePoolsOf(env, new Set([...probes.networksToEvaluate, ...heardAgain.map((r) => byId.get(r.nodeId)!.networkId)]));
  return reports.map((r) => {
    const node = byId.get(r.nodeId)!;
    return {
      nodeId: r.nodeId,
      desiredRoutingRevision: node.routing,
      desiredDnsRevision: node.dns,
      configChanged: r.appliedRoutingRevision !== node.routing || r.appliedDnsRevision !== node.dns,
      ...(r.peerReport ? { peerReport: answers.get(r.nodeId)!.peerReport } : {}),
    };
  });
}

type KnownNode = {
  lastSeenAt: string | null;
  appliedRoutingRevision: number | null;
  appliedDnsRevision: number | null;
  applyError: string | null;
};

/**
 * D1's copy of each reported node, updated only where it changed: its applied revisions or error, or its
 * last-seen once `refreshMs` old (the crons that read it judge in minutes; pools read the object's copy).
 */
function directoryUpdates(db: Db, reports: AgentNodeReport[], known: ReadonlyMap<string, KnownNode>, now: string, refreshMs: number) {
  return reports.flatMap((r) => {
    const node = known.get(r.nodeId)!;
    const reported = {
      appliedRoutingRevision: r.appliedRoutingRevision,
      appliedDnsRevision: r.appliedDnsRevision,
      applyError: r.error ?? null,
    };
    const changed =
      reported.appliedRoutingRevision !== node.appliedRoutingRevision ||
      reported.appliedDnsRevision !== node.appliedDnsRevision ||
      reported.applyError !== node.applyError;
    const due = node.lastSeenAt === null || Date.parse(now) - Date.parse(node.lastSeenAt) >= refreshMs;
    return changed || due
      ? [
          db
            .update(nodes)
            .set({ ...reported, lastSeenAt: now })
            .where(eq(nodes.id, r.nodeId)),
        ]
      : [];
  });
}

/**
 * What the reporting nodes that sent probe results were asked to probe, from their networks' writers
 * (the held network: no D1 read beyond its revision). Only reports with probes cost a call.
 */
async function assignedProbes(env: Env, reports: AgentNodeReport[], reporters: ReadonlyMap<string, { networkId: string }>) {
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
