import { and, eq, gt, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { enrolmentKeys } from "../db/schema";
import { unauthorized } from "../lib/errors";
import { nowIso } from "../lib/ids";
import { sha256 } from "./auth/tokens";

export const ENROLMENT_KEY_PREFIX = "ek_";

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
