import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accessPolicyRevisions } from "../../db/schema";
import { fieldError, notFound } from "../../lib/errors";
import type { AccessPolicyInput } from "../../objects/network/client";

/** One stored revision of a network's access policy, as written (docs/access.md, "Revisions and rollback"). */
export interface AccessRevision extends AccessPolicyInput {
  revision: number;
  createdAt: string;
  createdBy: string | null;
}

/** The cursor of a page is the last revision it listed: the next page holds the older ones. */
function olderThan(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^\d{1,9}$/.test(cursor)) throw fieldError("cursor", "Not a cursor this API issued");
  return Number(cursor);
}

/**
 * The network's revisions, newest first, each with its counts; the caller has checked read access.
 * Revisions are kept for the network's life (a PUT never rewrites one), so any can be read and PUT again.
 */
export async function listAccessRevisions(db: Db, networkId: string, limit: number, cursor: string | undefined) {
  const before = olderThan(cursor);
  const rows = await db
    .select()
    .from(accessPolicyRevisions)
    .where(
      and(eq(accessPolicyRevisions.networkId, networkId), before === undefined ? undefined : lt(accessPolicyRevisions.revision, before)),
    )
    .orderBy(desc(accessPolicyRevisions.revision))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map((row) => ({
      revision: row.revision,
      createdAt: row.createdAt,
      createdBy: row.createdBy,
      rules: row.rules.length,
      tests: row.tests.length,
    })),
    nextCursor: rows.length > limit ? String(page[page.length - 1]!.revision) : null,
  };
}

export async function readAccessRevision(db: Db, networkId: string, revision: number): Promise<AccessRevision> {
  const row = await db
    .select()
    .from(accessPolicyRevisions)
    .where(and(eq(accessPolicyRevisions.networkId, networkId), eq(accessPolicyRevisions.revision, revision)))
    .get();
  if (!row) throw notFound(`Revision ${revision} of this network's access policy`);
  return {
    revision: row.revision,
    rules: row.rules as AccessPolicyInput["rules"],
    tests: row.tests as AccessPolicyInput["tests"],
    createdAt: row.createdAt,
    createdBy: row.createdBy,
  };
}
