import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { groups, memberships, networks, type GroupRole } from "../../db/schema";
import { isForeignKeyViolation } from "../../lib/db-errors";
import { conflict } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor } from "../../lib/pagination";
import type { UserPrincipal } from "../../lib/types";
import { authorizeGroup } from "../authorization";
import { type AuditContext, auditStatement } from "../audit/audit-trail";

type Group = typeof groups.$inferSelect;
export type GroupWithRole = Group & { role: GroupRole };

const groupEvent = (action: string, groupId: string) => ({ action, resourceId: groupId, groupId, networkId: null });

/** A new group; its creator becomes its owner, in the same commit as the audit row. */
export async function createGroup(db: Db, auth: UserPrincipal, name: string, audit: AuditContext): Promise<GroupWithRole> {
  const now = nowIso();
  const group = { id: newId("grp"), name, createdAt: now, updatedAt: now };
  await db.batch([
    db.insert(groups).values(group),
    db.insert(memberships).values({ groupId: group.id, userId: auth.userId, role: "owner", createdAt: now, updatedAt: now }),
    auditStatement(db, audit, groupEvent("group.created", group.id), now),
  ]);
  return { ...group, role: "owner" };
}

/** The caller's groups, a page past `cursor` (limit + 1 rows); platform admins see every group, as owner. */
export async function listGroups(db: Db, auth: UserPrincipal, limit: number, cursor: string | undefined): Promise<GroupWithRole[]> {
  const after = afterCursor(groups, cursor);
  const order = [asc(groups.createdAt), asc(groups.id)];
  if (auth.platformRole === "admin") {
    const rows = await db
      .select()
      .from(groups)
      .where(after)
      .orderBy(...order)
      .limit(limit + 1)
      .all();
    return rows.map((row) => ({ ...row, role: "owner" as const }));
  }
  const rows = await db
    .select({ group: groups, role: memberships.role })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, auth.userId), after))
    .orderBy(...order)
    .limit(limit + 1)
    .all();
  return rows.map((row) => ({ ...row.group, role: row.role }));
}

export async function readGroup(db: Db, auth: UserPrincipal, groupId: string): Promise<GroupWithRole> {
  const { group, role } = await authorizeGroup(db, auth, groupId, "read");
  return { ...group, role };
}

/** Renames a group (owner, admin). */
export async function renameGroup(db: Db, auth: UserPrincipal, groupId: string, name: string, audit: AuditContext): Promise<GroupWithRole> {
  const { group, role } = await authorizeGroup(db, auth, groupId, "manage");
  const next = { ...group, name, updatedAt: nowIso() };
  await db.batch([
    db.update(groups).set(next).where(eq(groups.id, group.id)),
    auditStatement(db, audit, groupEvent("group.renamed", group.id), next.updatedAt),
  ]);
  return { ...next, role };
}

const stillOwnsNetworks = () => conflict("The group still owns networks; delete them first");

/** Deletes a group (owner); refused while it owns networks. */
export async function deleteGroup(db: Db, auth: UserPrincipal, groupId: string, audit: AuditContext): Promise<void> {
  const { group } = await authorizeGroup(db, auth, groupId, "own");
  const owned = await db.select({ id: networks.id }).from(networks).where(eq(networks.groupId, group.id)).limit(1).get();
  if (owned) throw stillOwnsNetworks();
  try {
    // The audit row first, on the condition the delete needs: a refused delete leaves no row.
    await db.batch([
      auditStatement(db, audit, groupEvent("group.deleted", group.id), nowIso(), sql`exists (select 1 from groups where id = ${group.id})`),
      db.delete(groups).where(eq(groups.id, group.id)),
    ]);
  } catch (error) {
    // A network created between the check and the delete: the foreign key refuses (the whole batch), and so do we.
    if (isForeignKeyViolation(error)) throw stillOwnsNetworks();
    throw error;
  }
}
