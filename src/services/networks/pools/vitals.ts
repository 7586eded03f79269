import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { forwardingProbes, nodes } from "../../../db/schema";
import type { Config } from "../../../lib/env";
import type { MemberVitals, PoolHealthRules } from "../../../core/pools/health";

/** D1 binds at most 100 parameters a statement. */
const CHUNK = 90;

/**
 * How stale D1's `nodes.last_seen_at` of a gateway node may be: an agent's report writes it only when this
 * much older (or when an applied revision or error changed); the network's object holds every report's time
 * (docs/scale.md "Where state lives"). A quarter of the shortest rule that reads it (the offline threshold in
 * force, admin settings included; drift), at most a minute, so the crons see a reporting node online as before.
 */
export const livenessRefreshSeconds = (config: Pick<Config, "OFFLINE_AFTER_SECONDS" | "DRIFT_AFTER_SECONDS">) =>
  Math.min(60, Math.floor(Math.min(config.OFFLINE_AFTER_SECONDS, config.DRIFT_AFTER_SECONDS) / 4));

/** The later of two report times (ISO strings order as times); null when neither. */
const later = (a: string | null, b: string | null | undefined) => (b && (!a || b > a) ? b : a);

/**
 * The last report and the probe streak of these nodes: the streak from D1, the last report from D1 laid under
 * what the network's object holds (`reported`: each report's time, where D1's is refreshed only now and then).
 */
export async function loadVitals(
  db: Db,
  nodeIds: readonly string[],
  reported: ReadonlyMap<string, string | null> = new Map(),
): Promise<Map<string, MemberVitals>> {
  const ids = [...new Set(nodeIds)];
  const vitals = new Map<string, MemberVitals>();
  for (let start = 0; start < ids.length; start += CHUNK) {
    const rows = await db
      .select({
        id: nodes.id,
        lastSeenAt: nodes.lastSeenAt,
        probeFailStreak: forwardingProbes.failStreak,
        proberNodeId: forwardingProbes.proberNodeId,
      })
      .from(nodes)
      .leftJoin(forwardingProbes, eq(forwardingProbes.nodeId, nodes.id))
      .where(inArray(nodes.id, ids.slice(start, start + CHUNK)))
      .all();
    for (const row of rows) {
      vitals.set(row.id, {
        lastSeenAt: later(row.lastSeenAt, reported.get(row.id)),
        probeFailStreak: row.probeFailStreak ?? 0,
        proberNodeId: row.proberNodeId ?? null,
      });
    }
  }
  return vitals;
}

export const poolHealthRules = (
  config: Pick<Config, "POOL_STALE_SECONDS" | "POOL_PROBE_FAILURES" | "POOL_HOLD_DOWN_SECONDS">,
): PoolHealthRules => ({
  staleSeconds: config.POOL_STALE_SECONDS,
  probeFailures: config.POOL_PROBE_FAILURES,
  holdDownSeconds: config.POOL_HOLD_DOWN_SECONDS,
});

/** What the agents' probes do (the desired state's `probeRules`): the echo cadence and the agent's hysteresis. */
export const probeRules = (config: Pick<Config, "POOL_PROBE_INTERVAL_MS" | "POOL_PROBE_DOWN_AFTER" | "POOL_PROBE_UP_AFTER">) => ({
  intervalMs: config.POOL_PROBE_INTERVAL_MS,
  downAfter: config.POOL_PROBE_DOWN_AFTER,
  upAfter: config.POOL_PROBE_UP_AFTER,
});
