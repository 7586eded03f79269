import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { enrolmentKeys } from "../../db/schema";
import { unauthorized } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { sha256 } from "../auth/tokens";

export const ENROLMENT_KEY_PREFIX = "ek_";

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
