import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memberships, users, type GroupRole, type MembershipSource } from "../../db/schema";
import type { Env } from "../../lib/env";
import { ApiError, conflict, forbidden, notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { afterCursor } from "../../lib/pagination";
import type { UserPrincipal } from "../../lib/types";
import { authorizeGroup } from "../authorization";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { assertNoHopDevices, refreshDeviceOwners, removeDevicesOf } from "../networks/device-lifecycle";

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: GroupRole;
  source: MembershipSource;
  createdAt: string;
  updatedAt: string;
}

const memberColumns = {
  userId: memberships.userId,
  email: users.email,
  name: users.name,
  role: memberships.role,
  source: memberships.source,
  createdAt: memberships.createdAt,
  updatedAt: memberships.updatedAt,
  id: memberships.userId,
};
const strip = ({ id: _cursorKey, ...member }: Member & { id: string }): Member => member;

/** True unless this change would leave the group without an owner; evaluated inside the write itself. */
const anotherOwnerRemains = (groupId: string, userId: string) =>
  sql`(${memberships.role} <> 'owner' or exists (select 1 from ${memberships} m where m.group_id = ${groupId} and m.role = 'owner' and m.user_id <> ${userId}))`;

/**
 * The same rule for the audit row, which is written before the change it records in the same batch (one
 * transaction, one state): the membership is there and the group keeps an owner without it.
 */
const memberMayGo = (groupId: string, userId: string, newRole?: GroupRole) =>
  sql`exists (select 1 from memberships x where x.group_id = ${groupId} and x.user_id = ${userId} and (${newRole === "owner" ? 1 : 0} = 1
    or x.role <> 'owner' or exists (select 1 from memberships m where m.group_id = ${groupId} and m.role = 'owner' and m.user_id <> ${userId})))`;

/**
 * Group managers add directly only people they already share a group with; anyone else gets an invite,
 * so a group owner cannot probe or pull in arbitrary accounts by email. Platform admins add anyone.
 * Unknown and unshared users answer alike.
 */
const addableBy = (auth: UserPrincipal) =>
  auth.platformRole === "admin"
    ? undefined
    : sql`exists (
  select 1 from ${memberships} theirs join ${memberships} mine on mine.group_id = theirs.group_id
  where theirs.user_id = ${users.id} and mine.user_id = ${auth.userId})`;

function assertMayTouch(actorRole: GroupRole, roles: (GroupRole | undefined)[]) {
  if (actorRole !== "owner" && roles.includes("owner")) throw forbidden("Only owners may grant or change the owner role");
}

async function findMember(db: Db, groupId: string, userId: string) {
  const member = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.groupId, groupId), eq(memberships.userId, userId)))
    .get();
  if (!member) throw notFound("Member");
  return member;
}

/** Members of a group (any member reads), a page past `cursor` (limit + 1 rows; `id` is the cursor key). */
export async function listMembers(db: Db, auth: UserPrincipal, groupId: string, limit: number, cursor: string | undefined) {
  const { group } = await authorizeGroup(db, auth, groupId, "read");
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.groupId, group.id), afterCursor({ createdAt: memberships.createdAt, id: memberships.userId }, cursor)))
    .orderBy(asc(memberships.createdAt), asc(memberships.userId))
    .limit(limit + 1)
    .all();
  return rows;
}

export type MemberToAdd = { userId?: string; email?: string; role: GroupRole };

/** Adds an existing user (owner, admin; only owners grant owner). The audit row names the group (the last path id). */
export async function addMember(
  env: Env,
  db: Db,
  auth: UserPrincipal,
  groupId: string,
  body: MemberToAdd,
  audit: AuditContext,
): Promise<Member> {
  const { group, role: actorRole } = await authorizeGroup(db, auth, groupId, "manage");
  assertMayTouch(actorRole, [body.role]);
  const user = await db
    .select()
    .from(users)
    .where(and(body.userId ? eq(users.id, body.userId) : eq(users.email, body.email!), addableBy(auth)))
    .get();
  if (!user) throw new ApiError("not_found", "No such user among the people you share a group with; send an invite instead");
  const now = nowIso();
  const notYet = sql`not exists (select 1 from memberships where group_id = ${group.id} and user_id = ${user.id})`;
  const [, inserted] = await db.batch([
    auditStatement(db, audit, { action: "member.added", resourceId: null, groupId: group.id, networkId: null }, now, notYet),
    db
      .insert(memberships)
      .values({ groupId: group.id, userId: user.id, role: body.role, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ userId: memberships.userId }),
  ]);
  if (inserted.length === 0) throw conflict("The user is already a member; change the role instead");
  // A platform admin may already hold devices in the group's networks (with no role): they now have one.
  await refreshDeviceOwners(env, db, user.id, group.id);
  return { userId: user.id, email: user.email, name: user.name, role: body.role, source: "manual", createdAt: now, updatedAt: now };
}

/** Changes a member's role (owner, admin; only owners touch owners); the last owner stays. */
export async function changeMemberRole(
  env: Env,
  db: Db,
  auth: UserPrincipal,
  groupId: string,
  userId: string,
  role: GroupRole,
  audit: AuditContext,
): Promise<Member> {
  const { group, role: actorRole } = await authorizeGroup(db, auth, groupId, "manage");
  const member = await findMember(db, group.id, userId);
  assertMayTouch(actorRole, [role, member.role]);
  // Viewers hold no devices: demotion to viewer takes them out like removal does (same 409 for hops).
  const losesDevices = role === "viewer";
  if (losesDevices) await assertNoHopDevices(db, userId, group.id);
  const now = nowIso();
  const event = { action: "member.role_changed", resourceId: userId, groupId: group.id, networkId: null };
  const [, changed] = await db.batch([
    auditStatement(db, audit, event, now, memberMayGo(group.id, userId, role)),
    db
      .update(memberships)
      // A person who sets the role by hand takes the membership over: the directory leaves it alone from now on.
      .set({ role, source: "manual", updatedAt: now })
      .where(
        and(
          eq(memberships.groupId, group.id),
          eq(memberships.userId, userId),
          role === "owner" ? undefined : anotherOwnerRemains(group.id, userId),
        ),
      )
      .returning({ userId: memberships.userId }),
  ]);
  if (changed.length === 0) throw conflict("A group keeps at least one owner");
  // Listed after the role change committed: an enrolment committed before is found here, one after is refused.
  if (losesDevices) await removeDevicesOf(env, db, userId, group.id);
  // Devices kept: `role:` selectors must see the new role (docs/access.md).
  else await refreshDeviceOwners(env, db, userId, group.id);
  return strip({ ...member, role, source: "manual", updatedAt: now });
}

/** Removes a member (owner, admin) or lets one leave (any member); the last owner stays. */
export async function removeMember(
  env: Env,
  db: Db,
  auth: UserPrincipal,
  groupId: string,
  userId: string,
  audit: AuditContext,
): Promise<void> {
  const leaving = userId === auth.userId;
  const { group, role: actorRole } = await authorizeGroup(db, auth, groupId, leaving ? "read" : "manage");
  const member = await findMember(db, group.id, userId);
  if (!leaving) assertMayTouch(actorRole, [member.role]);
  await assertNoHopDevices(db, userId, group.id);
  const event = { action: "member.removed", resourceId: userId, groupId: group.id, networkId: null };
  const [, removed] = await db.batch([
    auditStatement(db, audit, event, nowIso(), memberMayGo(group.id, userId)),
    db
      .delete(memberships)
      .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, userId), anotherOwnerRemains(group.id, userId)))
      .returning({ userId: memberships.userId }),
  ]);
  if (removed.length === 0) throw conflict("A group keeps at least one owner");
  // Leaving the group means leaving its networks: the member's devices there go too. Listed after the
  // removal committed: an enrolment committed before is found here, one after is refused by its own write.
  await removeDevicesOf(env, db, userId, group.id);
}
