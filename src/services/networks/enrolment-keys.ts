import { and, eq, gt, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { enrolmentKeys } from "../../db/schema";
import { insertWhere } from "../../db/insert-where";
import { notFound, unauthorized } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { randomToken, sha256 } from "../auth/tokens";
import { holdsRoleInNetwork, MANAGING_ROLES } from "../live-authority";

export const ENROLMENT_KEY_PREFIX = "ek_";

export type EnrolmentKeyRow = typeof enrolmentKeys.$inferSelect;

/**
 * A new key for headless enrolment into one network; the secret is returned once and only its hash is kept.
 * Its tags go onto every device it enrolls, so making one is tagging: the row (and its audit row) is written
 * only if its creator still manages the network when the batch runs (a demotion landing after the Worker's
 * check cannot leave a member's tagged key). Refused: null, nothing written.
 */
export async function issueEnrolmentKey(
  db: Db,
  network: { id: string; groupId: string },
  createdBy: string,
  input: { name: string; expiresInSeconds: number; usageLimit: number; tags: string[] },
  audit: AuditContext,
) {
  const networkId = network.id;
  const key = `${ENROLMENT_KEY_PREFIX}${randomToken()}`;
  const now = nowIso();
  const row: EnrolmentKeyRow = {
    id: newId("ek"),
    networkId,
    name: input.name,
    keyHash: sha256(key),
    tags: input.tags,
    createdBy,
    expiresAt: secondsFromNow(input.expiresInSeconds),
    usageLimit: input.usageLimit,
    usedCount: 0,
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const manages = holdsRoleInNetwork(createdBy, networkId, MANAGING_ROLES);
  const event = { action: "enrolment-key.created", resourceId: row.id, networkId, groupId: network.groupId };
  const [inserted] = await db.batch([
    insertWhere(db, enrolmentKeys, row, manages).returning({ id: enrolmentKeys.id }),
    auditStatement(db, audit, event, now, sql`exists (select 1 from enrolment_keys where id = ${row.id})`),
  ]);
  return inserted.length > 0 ? { row, key } : null;
}

/** Revoking twice is harmless (the first revocation time stays); a key of another network is 404. */
export async function revokeEnrolmentKey(db: Db, network: { id: string; groupId: string }, keyId: string, audit: AuditContext) {
  const networkId = network.id;
  const exists = sql`exists (select 1 from enrolment_keys where id = ${keyId} and network_id = ${networkId})`;
  const event = { action: "enrolment-key.revoked", resourceId: keyId, networkId, groupId: network.groupId };
  const [found] = await db.batch([
    db
      .select({ id: enrolmentKeys.id })
      .from(enrolmentKeys)
      .where(and(eq(enrolmentKeys.id, keyId), eq(enrolmentKeys.networkId, networkId))),
    db
      .update(enrolmentKeys)
      .set({ revokedAt: nowIso() })
      .where(and(eq(enrolmentKeys.id, keyId), eq(enrolmentKeys.networkId, networkId), isNull(enrolmentKeys.revokedAt))),
    // An unknown key is a 404 and leaves no row.
    auditStatement(db, audit, event, nowIso(), exists),
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
  const row = await db
    .select()
    .from(enrolmentKeys)
    .where(
      and(
        eq(enrolmentKeys.keyHash, sha256(key)),
        isNull(enrolmentKeys.revokedAt),
        gt(enrolmentKeys.expiresAt, now),
        lt(enrolmentKeys.usedCount, enrolmentKeys.usageLimit),
      ),
    )
    .get();
  if (!row) throw keyNotValid();
  return row;
}

/** The statement that counts one use, for the enrolment's batch; `onlyIf` is "the node was written". */
export const takeEnrolmentKeyUse = (db: Db, keyId: string, onlyIf: SQL) =>
  db
    .update(enrolmentKeys)
    .set({ usedCount: sql`${enrolmentKeys.usedCount} + 1`, updatedAt: nowIso() })
    .where(and(eq(enrolmentKeys.id, keyId), onlyIf));
