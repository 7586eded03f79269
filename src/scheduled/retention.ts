import { and, eq, inArray, lt, notExists } from "drizzle-orm";
import type { Db } from "../db/client";
import { auditEvents, notificationDeliveries, notificationEvents } from "../db/schema";
import type { Config } from "../lib/env";

/** Finished deliveries stay visible this long (their events with them); pending ones are never pruned. */
export const DELIVERY_RETENTION_DAYS = 30;
/** Bounded deletes per run keep each cron invocation short; a backlog drains over a few minutes. */
const PRUNE_BATCH = 1000;

const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

export async function pruneOld(db: Db, config: Config, now: Date) {
  const auditCutoff = daysAgo(now, config.AUDIT_RETENTION_DAYS);
  const eventCutoff = daysAgo(now, DELIVERY_RETENTION_DAYS);
  const oldAudit = db.select({ id: auditEvents.id }).from(auditEvents).where(lt(auditEvents.createdAt, auditCutoff)).limit(PRUNE_BATCH);
  const oldEvents = db.select({ id: notificationEvents.id }).from(notificationEvents)
    .where(and(
      lt(notificationEvents.createdAt, eventCutoff),
      notExists(db.select({ id: notificationDeliveries.id }).from(notificationDeliveries)
        .where(and(eq(notificationDeliveries.eventId, notificationEvents.id), eq(notificationDeliveries.status, "pending")))),
    )).limit(PRUNE_BATCH);
  // Deliveries go with their event (ON DELETE CASCADE).
  await db.batch([
    db.delete(auditEvents).where(inArray(auditEvents.id, oldAudit)),
    db.delete(notificationEvents).where(inArray(notificationEvents.id, oldEvents)),
  ]);
}
