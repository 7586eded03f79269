import { and, eq, isNotNull, notExists, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { networkHotStats, nodePresence, nodes } from "../db/schema";
import type { Env } from "../lib/env";
import { unwrap } from "../lib/write-result";
import { networkWriter } from "../objects/network/client";

/** Networks handed over a run: the rest follow in the next minutes. */
const HANDOVERS_PER_RUN = 50;

/**
 * Device nodes' presence moved from this cron into their networks' objects, which check while a device beats. A
 * device the cron last saw online that never beats again would wake no object, and its node.offline would never
 * come: so the cron asks each network that has such a node and whose object never checked (no network_hot_stats
 * row: every object's first check writes one) for one check. Once done, the network is its object's alone.
 */
export async function handOverPresence(env: Env, db: Db) {
  const waiting = await db
    .selectDistinct({ networkId: nodes.networkId })
    .from(nodePresence)
    .innerJoin(nodes, eq(nodes.id, nodePresence.nodeId))
    .where(
      and(
        eq(nodePresence.state, "online"),
        isNotNull(nodes.deviceId),
        notExists(db.select({ one: sql`1` }).from(networkHotStats).where(eq(networkHotStats.networkId, nodes.networkId))),
      ),
    )
    .limit(HANDOVERS_PER_RUN)
    .all();
  const checks = await Promise.allSettled(waiting.map(({ networkId }) => unwrap(networkWriter(env, networkId).checkPresence(networkId))));
  const failed = checks.filter((check) => check.status === "rejected");
  if (failed.length > 0)
    throw new AggregateError(
      failed.map((check) => check.reason),
      `${failed.length} presence handover(s) failed`,
    );
  return waiting.length;
}
