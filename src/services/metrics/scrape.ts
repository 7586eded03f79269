import { createDb } from "../../db/client";
import { meteredD1, newMeter } from "../../db/metered-d1";
import { type Env, getConfig } from "../../lib/env";
import { renderFamilies } from "../../lib/prometheus-text";
import { livenessRefreshSeconds, poolHealthRules } from "../networks/pools/vitals";
import { readFleet } from "./fleet-queries";
import { networkFamilies } from "./network-families";
import { platformFamilies } from "./platform-families";
import { sampleWriterDepths } from "./writer-depth";

/**
 * One scrape: the fleet's aggregates in one D1 batch (through a metered binding, so the scrape reports
 * its own cost), the queue depth of the recently written networks' writers, rendered as Prometheus text.
 */
export async function scrapeMetrics(env: Env, now = new Date()): Promise<string> {
  const meter = newMeter();
  const fleet = await readFleet(createDb(meteredD1(env.DB, meter)), now);
  const writers = await sampleWriterDepths(env, fleet.networkRows, now);
  const config = getConfig(env);
  // D1's last-seen of a gateway node is refreshed only every livenessRefreshSeconds (agents/reports.ts): a member
  // is stale here once that much later than its writer judges it (which reads every report's time).
  const rules = { ...poolHealthRules(config), staleSeconds: config.POOL_STALE_SECONDS + livenessRefreshSeconds(config) };
  return renderFamilies([...networkFamilies(fleet, writers), ...platformFamilies(fleet, rules, now.getTime(), meter)]);
}
