import { and, eq, gt, isNull, lt, type SQL, sql } from "drizzle-orm";
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

export const keyNotValid = () =>
  unauthorized("The enrolment key is not valid (unknown, expired, revoked, used up, or its issuer no longer manages the network)");

/**
 * Finds a key that looks usable, to learn its network and answer early. Nothing is taken here: the use
 * is taken by the enrolment's own batch in the network's writer, which re-checks the key and its
 * issuer's authority in the same transaction (services/live-authority.ts), so the usage limit holds
 * under concurrency and a refused enrolment leaves the count as it was.
 */
export async function findEnrolmentKey(db: Db, key: string) {
  const now = nowIso();
  const row = await db.select().from(enrolmentKeys)
    .where(and(
      eq(enrolmentKeys.keyHash, sha256(key)), isNull(enrolmentKeys.revokedAt),
      gt(enrolmentKeys.expiresAt, now), lt(enrolmentKeys.usedCount, enrolmentKeys.usageLimit),
    ))
    .get();
  if (!row) throw keyNotValid();
  return row;
}

/** The statement that counts one use, for the enrolment's batch; `onlyIf` is "the node was written". */
export const takeEnrolmentKeyUse = (db: Db, keyId: string, onlyIf: SQL) =>
  db.update(enrolmentKeys).set({ usedCount: sql`${enrolmentKeys.usedCount} + 1`, updatedAt: nowIso() })
    .where(and(eq(enrolmentKeys.id, keyId), onlyIf));
