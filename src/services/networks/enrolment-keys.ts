import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { enrolmentKeys } from "../../db/schema";
import { notFound, unauthorized } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { randomToken, sha256 } from "../auth/tokens";

export const ENROLMENT_KEY_PREFIX = "ek_";

export type EnrolmentKeyRow = typeof enrolmentKeys.$inferSelect;

/** A new key for headless enrolment into one network; the secret is returned once and only its hash is kept. */
export async function issueEnrolmentKey(
  db: Db, networkId: string, createdBy: string, input: { name: string; expiresInSeconds: number; usageLimit: number },
) {
  const key = `${ENROLMENT_KEY_PREFIX}${randomToken()}`;
  const now = nowIso();
  const row: EnrolmentKeyRow = {
    id: newId("ek"), networkId, name: input.name, keyHash: sha256(key), createdBy,
    expiresAt: secondsFromNow(input.expiresInSeconds), usageLimit: input.usageLimit,
    usedCount: 0, revokedAt: null, createdAt: now, updatedAt: now,
  };
  await db.insert(enrolmentKeys).values(row);
  return { row, key };
}

/** Revoking twice is harmless (the first revocation time stays); a key of another network is 404. */
export async function revokeEnrolmentKey(db: Db, networkId: string, keyId: string) {
  const [found] = await db.batch([
    db.select({ id: enrolmentKeys.id }).from(enrolmentKeys).where(and(eq(enrolmentKeys.id, keyId), eq(enrolmentKeys.networkId, networkId))),
    db.update(enrolmentKeys).set({ revokedAt: nowIso() })
      .where(and(eq(enrolmentKeys.id, keyId), eq(enrolmentKeys.networkId, networkId), isNull(enrolmentKeys.revokedAt))),
  ]);
  if (found.length === 0) throw notFound("Enrolment key");
}

/**
 * Takes one use of a key in a single conditional UPDATE, so concurrent enrolments can never exceed
 * the usage limit. Expired, revoked, used-up and unknown keys all answer the same 401.
 */
export async function consumeEnrolmentKey(db: Db, key: string) {
  const now = nowIso();
  const [row] = await db.update(enrolmentKeys)
    .set({ usedCount: sql`${enrolmentKeys.usedCount} + 1`, updatedAt: now })
    .where(and(
      eq(enrolmentKeys.keyHash, sha256(key)), isNull(enrolmentKeys.revokedAt),
      gt(enrolmentKeys.expiresAt, now), lt(enrolmentKeys.usedCount, enrolmentKeys.usageLimit),
    ))
    .returning();
  if (!row) throw unauthorized("The enrolment key is not valid (unknown, expired, revoked or used up)");
  return row;
}

/** Gives back a use taken by an enrolment that then failed (e.g. a duplicate public key). */
export async function releaseEnrolmentKeyUse(db: Db, keyId: string) {
  await db.update(enrolmentKeys).set({ usedCount: sql`${enrolmentKeys.usedCount} - 1` })
    .where(and(eq(enrolmentKeys.id, keyId), gt(enrolmentKeys.usedCount, 0)));
}
