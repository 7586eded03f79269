import { and, eq, inArray, isNotNull, lt, notExists, or } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  auditEvents,
  devMail,
  nodes,
  mfaChallenges,
  notificationDeliveries,
  notificationEvents,
  oauthStates,
  passwordResets,
  refreshTokens,
  sessions,
  tunnelObservations,
} from "../db/schema";
import type { Config } from "../lib/env";

/** Finished deliveries stay visible this long (their events with them); pending ones are never pruned. */
export const DELIVERY_RETENTION_DAYS = 30;
/** Ended sign-in state stays a day (for support questions), then goes: nothing can use it any more. */
export const ENDED_CREDENTIAL_RETENTION_DAYS = 1;
/** Bounded deletes per run keep each cron invocation short; a backlog drains over a few minutes. */
const PRUNE_BATCH = 1000;

const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

export async function pruneOld(db: Db, config: Config, now: Date) {
  const auditCutoff = daysAgo(now, config.AUDIT_RETENTION_DAYS);
  const eventCutoff = daysAgo(now, DELIVERY_RETENTION_DAYS);
  const oldAudit = db.select({ id: auditEvents.id }).from(auditEvents).where(lt(auditEvents.createdAt, auditCutoff)).limit(PRUNE_BATCH);
  const oldEvents = db
    .select({ id: notificationEvents.id })
    .from(notificationEvents)
    .where(
      and(
        lt(notificationEvents.createdAt, eventCutoff),
        notExists(
          db
            .select({ id: notificationDeliveries.id })
            .from(notificationDeliveries)
            .where(and(eq(notificationDeliveries.eventId, notificationEvents.id), eq(notificationDeliveries.status, "pending"))),
        ),
      ),
    )
    .limit(PRUNE_BATCH);
  // Deliveries go with their event (ON DELETE CASCADE).
  await db.batch([
    db.delete(auditEvents).where(inArray(auditEvents.id, oldAudit)),
    db.delete(notificationEvents).where(inArray(notificationEvents.id, oldEvents)),
  ]);
}

/**
 * Sign-in state that can no longer be used: expired OAuth states, reset links and MFA challenges; ended
 * sessions (revoked or past their refresh lifetime; their refresh tokens cascade); expired refresh tokens
 * of live sessions (each rotation leaves one behind); development mail. Bounded like pruneOld.
 */
export async function pruneEndedCredentials(db: Db, now: Date) {
  const cutoff = daysAgo(now, ENDED_CREDENTIAL_RETENTION_DAYS);
  await db.batch([
    db
      .delete(oauthStates)
      .where(
        inArray(
          oauthStates.id,
          db.select({ id: oauthStates.id }).from(oauthStates).where(lt(oauthStates.expiresAt, cutoff)).limit(PRUNE_BATCH),
        ),
      ),
    db
      .delete(passwordResets)
      .where(
        inArray(
          passwordResets.id,
          db.select({ id: passwordResets.id }).from(passwordResets).where(lt(passwordResets.expiresAt, cutoff)).limit(PRUNE_BATCH),
        ),
      ),
    db
      .delete(mfaChallenges)
      .where(
        inArray(
          mfaChallenges.id,
          db.select({ id: mfaChallenges.id }).from(mfaChallenges).where(lt(mfaChallenges.expiresAt, cutoff)).limit(PRUNE_BATCH),
        ),
      ),
    db.delete(sessions).where(
      inArray(
        sessions.id,
        db
          .select({ id: sessions.id })
          .from(sessions)
          .where(or(lt(sessions.expiresAt, cutoff), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, cutoff))))
          .limit(PRUNE_BATCH),
      ),
    ),
    db
      .delete(refreshTokens)
      .where(
        inArray(
          refreshTokens.id,
          db.select({ id: refreshTokens.id }).from(refreshTokens).where(lt(refreshTokens.expiresAt, cutoff)).limit(PRUNE_BATCH),
        ),
      ),
    db
      .delete(devMail)
      .where(inArray(devMail.id, db.select({ id: devMail.id }).from(devMail).where(lt(devMail.createdAt, cutoff)).limit(PRUNE_BATCH))),
  ]);
}

/**
 * Observations reported by nodes that no longer exist: a heartbeat that passed its access check just
 * before its node was removed can land after the removal (heartbeats bypass the routing queue).
 */
export async function pruneOrphanObservations(db: Db) {
  await db.delete(tunnelObservations).where(
    inArray(
      tunnelObservations.id,
      db
        .select({ id: tunnelObservations.id })
        .from(tunnelObservations)
        .where(notExists(db.select({ id: nodes.id }).from(nodes).where(eq(nodes.id, tunnelObservations.fromNodeId))))
        .limit(PRUNE_BATCH),
    ),
  );
}
