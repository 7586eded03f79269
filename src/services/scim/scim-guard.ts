import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { insertWhere } from "../../db/insert-where";
import { authorityGuard } from "../../db/schema";
import { isGuardRefusal } from "../../lib/db-errors";
import { unauthorized } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import type { AuditContext } from "../audit/audit-trail";
import { sessionLive } from "../live-authority";

/**
 * A change to the directory's data (a SCIM request, or a platform admin's IdP group mapping): its audit context
 * and the authority it is made on, which must still hold when its batch runs.
 */
export interface DirectoryWrite {
  audit: AuditContext;
  holds: SQL;
}

/** A SCIM client's write: its token must still be unrevoked. */
export const scimWrite = (audit: AuditContext, tokenId: string): DirectoryWrite => ({
  audit,
  holds: sql`exists (select 1 from scim_tokens where id = ${tokenId} and revoked_at is null)`,
});

/** A platform admin's write: their session live and still a platform admin's. */
export function adminWrite(audit: AuditContext): DirectoryWrite {
  const session = audit.session;
  if (audit.actor.type !== "user" || !audit.actor.id || !session) throw unauthorized("A platform admin's session is required");
  return { audit, holds: sessionLive(audit.actor.id, session.id, "admin", nowIso()) };
}

/**
 * First in every such batch: the guard's CHECK rolls the whole batch back once the authority has ended
 * (docs/architecture.md, "Authority inside the batch"). The middleware's lookup alone would let a write that
 * read the token (or session) before its revocation commit after it.
 */
export const directoryGuard = (db: Db, write: DirectoryWrite): BatchItem<"sqlite"> =>
  insertWhere(db, authorityGuard, { held: 0 }, sql`not ${write.holds}`);

/** A write whose guard refused it answers as the middleware would have: the credential is no longer valid. */
export async function refusedIfRevoked<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isGuardRefusal(error)) throw unauthorized("The SCIM token was revoked or the session ended");
    throw error;
  }
}
