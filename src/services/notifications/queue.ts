import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { notificationChannels, notificationDeliveries, notificationEvents } from "../../db/schema";
import type { Config } from "../../lib/env";
import { describeForLog } from "../../lib/log";
import { attemptDelivery, type AttemptOutcome } from "./attempt";
import { nextAttemptAfter } from "./backoff";

export interface QueueDeps {
  db: Db;
  config: Config;
}

export interface ProcessOptions {
  /** Only deliveries of these events (the immediate first attempt after an emission). */
  eventIds?: string[];
  /** Only these deliveries (a channel test). */
  deliveryIds?: string[];
  /** Stop claiming new work after this long; what is left waits for the next cron tick. */
  budgetMs?: number;
}

const CLAIM_SIZE = 10;
const MAX_ROUNDS = 10;

/**
 * Claims due deliveries in one UPDATE: attempts + 1 and nextAttemptAt pushed past the request timeout
 * (a lease). A concurrent processor's claim no longer sees them as due; if this one dies mid-send
 * the lease runs out and the next tick retries.
 */
async function claim(deps: QueueDeps, options: ProcessOptions, now: Date) {
  const { db, config } = deps;
  const at = now.toISOString();
  const lease = new Date(now.getTime() + config.WEBHOOK_TIMEOUT_MS + 60_000).toISOString();
  const due = db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.status, "pending"),
        lte(notificationDeliveries.nextAttemptAt, at),
        options.eventIds ? inArray(notificationDeliveries.eventId, options.eventIds) : undefined,
        options.deliveryIds ? inArray(notificationDeliveries.id, options.deliveryIds) : undefined,
      ),
    )
    .orderBy(asc(notificationDeliveries.nextAttemptAt), asc(notificationDeliveries.id))
    .limit(CLAIM_SIZE);
  const claimed = await db
    .update(notificationDeliveries)
    .set({ attempts: sql`${notificationDeliveries.attempts} + 1`, lastAttemptAt: at, nextAttemptAt: lease, updatedAt: at })
    .where(and(inArray(notificationDeliveries.id, due), eq(notificationDeliveries.status, "pending")))
    .returning({ id: notificationDeliveries.id });
  if (claimed.length === 0) return [];
  return db
    .select({ delivery: notificationDeliveries, event: notificationEvents, channel: notificationChannels })
    .from(notificationDeliveries)
    .innerJoin(notificationEvents, eq(notificationEvents.id, notificationDeliveries.eventId))
    .innerJoin(notificationChannels, eq(notificationChannels.id, notificationDeliveries.channelId))
    .where(
      inArray(
        notificationDeliveries.id,
        claimed.map((row) => row.id),
      ),
    )
    .all();
}

/** The attempts guard keeps a processor whose lease ran out from overwriting a newer attempt's result. */
function record(db: Db, delivery: { id: string; attempts: number }, outcome: AttemptOutcome, now: Date) {
  const at = now.toISOString();
  const retryAt = !outcome.ok && outcome.retry ? nextAttemptAfter(delivery.attempts, now) : null;
  const status = outcome.ok ? "delivered" : retryAt ? "pending" : "failed";
  return db
    .update(notificationDeliveries)
    .set({
      status,
      nextAttemptAt: retryAt,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.ok ? null : outcome.error,
      deliveredAt: outcome.ok ? at : null,
      updatedAt: at,
    })
    .where(and(eq(notificationDeliveries.id, delivery.id), eq(notificationDeliveries.attempts, delivery.attempts)));
}

/** Attempts due deliveries, CLAIM_SIZE at a time in parallel; returns how many were attempted. */
export async function processDeliveries(deps: QueueDeps, options: ProcessOptions = {}): Promise<number> {
  const started = Date.now();
  const budget = options.budgetMs ?? 25_000;
  let attempted = 0;
  for (let round = 0; round < MAX_ROUNDS && Date.now() - started < budget; round++) {
    const batch = await claim(deps, options, new Date());
    if (batch.length === 0) break;
    const outcomes = await Promise.all(batch.map((input) => attemptDelivery(deps.config, deps.db, input)));
    const now = new Date();
    const updates = batch.map((input, index) => record(deps.db, input.delivery, outcomes[index]!, now));
    const [first, ...rest] = updates;
    if (first) await deps.db.batch([first, ...rest]);
    attempted += batch.length;
  }
  return attempted;
}

/** The first delivery attempt of the events a write queued, after its answer; the minute cron retries what fails. */
export function deliverInBackground(state: { waitUntil(work: Promise<unknown>): void }, deps: QueueDeps, eventIds: string[]) {
  if (eventIds.length === 0) return;
  const work = processDeliveries(deps, { eventIds }).catch((error: unknown) =>
    console.error(JSON.stringify({ background: "notifications", ...describeForLog(error) })),
  );
  state.waitUntil(work);
}
