import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditEvents, memberships } from "../../db/schema";
import type { UserPrincipal } from "../../lib/types";
import { authorizeGroup, authorizeNetwork } from "../authorization";
import { ordering, pastCursor } from "./page-order";

export { ACTOR_TYPES } from "../../db/schema";
export type AuditEvent = typeof auditEvents.$inferSelect;

export interface AuditQuery {
  limit: number;
  cursor?: string;
  order: "asc" | "desc";
  groupId?: string;
  networkId?: string;
  actorId?: string;
}

/**
 * What the caller may read. Platform admins: everything, and any id as a filter (the group or network
 * may be long deleted). Others: a named group or network they manage (authorizeGroup/authorizeNetwork answer
 * 404 or 403), else every group where they are owner or admin. Events outside any group (sign-ins,
 * user and inventory changes) are platform-admin only.
 */
async function visibility(db: Db, auth: UserPrincipal, query: { groupId?: string; networkId?: string }): Promise<SQL | undefined> {
  const filters: (SQL | undefined)[] = [];
  if (query.groupId) filters.push(eq(auditEvents.groupId, query.groupId));
  if (query.networkId) filters.push(eq(auditEvents.networkId, query.networkId));
  if (auth.platformRole !== "admin") {
    if (query.groupId) await authorizeGroup(db, auth, query.groupId, "manage");
    if (query.networkId) await authorizeNetwork(db, auth, query.networkId, "manage");
    if (!query.groupId && !query.networkId) {
      filters.push(
        inArray(
          auditEvents.groupId,
          db
            .select({ groupId: memberships.groupId })
            .from(memberships)
            .where(and(eq(memberships.userId, auth.userId), inArray(memberships.role, ["owner", "admin"]))),
        ),
      );
    }
  }
  return and(...filters);
}

/** One page's rows plus one (for toPage) of the audit events the caller may read. */
export async function readAuditLog(db: Db, auth: UserPrincipal, query: AuditQuery) {
  const scope = await visibility(db, auth, query);
  return db
    .select()
    .from(auditEvents)
    .where(
      and(scope, query.actorId ? eq(auditEvents.actorId, query.actorId) : undefined, pastCursor(auditEvents, query.cursor, query.order)),
    )
    .orderBy(...ordering(auditEvents, query.order))
    .limit(query.limit + 1)
    .all();
}
