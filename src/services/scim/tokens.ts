import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { scimTokens } from "../../db/schema";
import { isUniqueViolation } from "../../lib/db-errors";
import { conflict, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor } from "../../lib/pagination";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import { randomToken, sha256 } from "../auth/tokens";

/** What a SCIM token's bearer string starts with: the SCIM routes know it as theirs, every other route refuses it. */
export const SCIM_TOKEN_PREFIX = "scim_";

export type ScimToken = typeof scimTokens.$inferSelect;

/**
 * A token for one directory's SCIM client, shown only in this answer. Its name is unique for good (audit rows
 * name SCIM changes `scim:<name>`, so a name never comes to mean another directory).
 */
export async function issueScimToken(db: Db, name: string, createdBy: string, audit: AuditContext) {
  const taken = await db.select({ id: scimTokens.id }).from(scimTokens).where(eq(scimTokens.name, name)).get();
  if (taken) throw conflict(`SCIM token ${taken.id} already uses the name "${name}"`);
  const token = `${SCIM_TOKEN_PREFIX}${randomToken()}`;
  const row: ScimToken = {
    id: newId("sct"),
    name,
    tokenHash: sha256(token),
    createdBy,
    createdAt: nowIso(),
    lastUsedAt: null,
    revokedAt: null,
  };
  // A name taken between the read and the batch fails the unique index: the batch (and its audit row) is refused.
  await batchWithAudit(db, [db.insert(scimTokens).values(row)], audit, platformEvent("scim-token.issued", row.id)).catch((error) => {
    if (isUniqueViolation(error)) throw conflict(`A SCIM token already uses the name "${name}"`);
    throw error;
  });
  return { token: row, secret: token };
}

/** One page's rows plus one (toPage tells whether another page follows), oldest first. */
export const listScimTokens = (db: Db, query: { limit: number; cursor?: string }) =>
  db
    .select()
    .from(scimTokens)
    .where(afterCursor(scimTokens, query.cursor))
    .orderBy(asc(scimTokens.createdAt), asc(scimTokens.id))
    .limit(query.limit + 1)
    .all();

/** Revoked from the batch on: the next SCIM request with it is refused. Revoking again keeps the first time. */
export async function revokeScimToken(db: Db, id: string, audit: AuditContext): Promise<ScimToken> {
  const token = await db.select().from(scimTokens).where(eq(scimTokens.id, id)).get();
  if (!token) throw notFound("SCIM token");
  const revokedAt = token.revokedAt ?? nowIso();
  await batchWithAudit(
    db,
    [db.update(scimTokens).set({ revokedAt }).where(eq(scimTokens.id, id))],
    audit,
    platformEvent("scim-token.revoked", id),
  );
  return { ...token, revokedAt };
}

/** The live (unrevoked) token a SCIM request presents, or undefined. */
export const liveScimToken = (db: Db, secret: string) =>
  db
    .select()
    .from(scimTokens)
    .where(and(eq(scimTokens.tokenHash, sha256(secret)), isNull(scimTokens.revokedAt)))
    .get();

/** lastUsedAt for the admin list: moved at most once a minute, so a sync's thousands of requests stay reads. */
export function touchScimToken(db: Db, token: ScimToken) {
  if (token.lastUsedAt && Date.now() - Date.parse(token.lastUsedAt) < 60_000) return undefined;
  return db.update(scimTokens).set({ lastUsedAt: nowIso() }).where(eq(scimTokens.id, token.id));
}
