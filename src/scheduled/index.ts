import { createDb, type Db } from "../db/client";
import { type Env, getConfig } from "../lib/env";
import { describeForLog } from "../lib/log";
import { configInForce } from "../services/settings/settings";
import { emitEvents } from "../services/notifications/emit";
import type { EventInput } from "../services/notifications/event-types";
import { processDeliveries } from "../services/notifications/queue";
import { detectConfigDrift, tickDriftClocks } from "./config-drift";
import { cutoffs } from "./cutoffs";
import { detectGatewayPresence } from "./gateway-presence";
import { detectNodePresence } from "./node-presence";
import { handOverPresence } from "./presence-handover";
import { pruneEndedCredentials, pruneOld, pruneOrphanObservations } from "./retention";

type Detection = { events: EventInput[]; writes: Parameters<Db["batch"]>[0][number][] };

/** Emit first, record after: if the run dies in between, the next run re-emits and the dedupe keys absorb it. */
async function settle(db: Db, detection: Detection) {
  await emitEvents(db, detection.events);
  for (let start = 0; start < detection.writes.length; start += 50) {
    const [first, ...rest] = detection.writes.slice(start, start + 50);
    if (first) await db.batch([first, ...rest]);
  }
}

/**
 * The Cron Trigger (every minute, wrangler.toml): detection (of nodes without a device: device nodes are judged
 * by their networks' objects, presence-handover.ts), then the delivery queue (new events' first attempts and due
 * retries), then retention. Each part is isolated, so a failing detector does
 * not stop deliveries; the run still ends in an exception (visible in Cron metrics) when one failed.
 */
export async function runScheduled(env: Env, now = new Date()): Promise<void> {
  const db = createDb(env.DB);
  // Admin settings may override the offline threshold (OFFLINE_AFTER_SECONDS).
  const config = await configInForce(getConfig(env), db);
  const at = cutoffs(config, now);
  const failures: unknown[] = [];
  const step = async (name: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      failures.push(error);
      console.error(JSON.stringify({ scheduled: name, ...describeForLog(error) }));
    }
  };
  await step("node-presence", async () => settle(db, await detectNodePresence(db, at)));
  await step("presence-handover", () => handOverPresence(env, db));
  await step("gateway-presence", async () => settle(db, await detectGatewayPresence(db, at)));
  await step("config-drift", async () => {
    await tickDriftClocks(db, at);
    await settle(db, await detectConfigDrift(db, at));
  });
  await step("deliveries", () => processDeliveries({ db, config }));
  await step("retention", () => pruneOld(db, config, now));
  await step("ended-credentials", () => pruneEndedCredentials(db, now));
  await step("orphan-observations", () => pruneOrphanObservations(db));
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} scheduled step(s) failed`);
}

export const scheduled: ExportedHandlerScheduledHandler<Env> = async (_controller, env) => {
  await runScheduled(env);
};
