import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { forwardingProbes, nodes } from "../../../db/schema";
import type { Config } from "../../../lib/env";
import type { MemberVitals, PoolHealthRules } from "./health";

/** D1 binds at most 100 parameters a statement. */
const CHUNK = 90;

/**
 * The last report and the probe streak of these nodes, read fresh from D1: both are written by agent
 * reports outside the writer, so the writer's held rows do not have them.
 */
export async function loadVitals(db: Db, nodeIds: readonly string[]): Promise<Map<string, MemberVitals>> {
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
      vitals.set(row.id, { lastSeenAt: row.lastSeenAt, probeFailStreak: row.probeFailStreak ?? 0, proberNodeId: row.proberNodeId ?? null });
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
