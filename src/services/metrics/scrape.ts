import { createDb } from "../../db/client";
import { meteredD1, newMeter } from "../../db/metered-d1";
import { type Env, getConfig } from "../../lib/env";
import { renderFamilies } from "../../lib/prometheus-text";
import { poolHealthRules } from "../networks/pools/vitals";
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
  return renderFamilies([
    ...networkFamilies(fleet, writers),
    ...platformFamilies(fleet, poolHealthRules(getConfig(env)), now.getTime(), meter),
  ]);
}
