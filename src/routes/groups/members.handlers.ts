import { and, asc, eq, sql } from "drizzle-orm";
import { memberships, users, type GroupRole } from "../../db/schema";
import { ApiError, conflict, forbidden, notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler, UserAuth } from "../../lib/types";
import { groupAccess } from "../../services/access";
import { assertNoHopDevices, removeDevicesOf } from "../../services/networks/operations/device-lifecycle";
import type * as routes from "./members.routes";

const memberColumns = {
  userId: memberships.userId, email: users.email, name: users.name, role: memberships.role,
  createdAt: memberships.createdAt, updatedAt: memberships.updatedAt, id: memberships.userId,
};
const present = ({ id: _cursorKey, ...member }: { id: string; userId: string; email: string; name: string; role: GroupRole; createdAt: string; updatedAt: string }) => member;

/** True unless this change would leave the group without an owner; evaluated inside the write itself. */
const anotherOwnerRemains = (groupId: string, userId: string) =>
  sql`(${memberships.role} <> 'owner' or exists (select 1 from ${memberships} m where m.group_id = ${groupId} and m.role = 'owner' and m.user_id <> ${userId}))`;

/**
 * Group managers add directly only people they already share a group with; anyone else gets an invite,
 * so a group owner cannot probe or pull in arbitrary accounts by email. Platform admins add anyone.
 * Unknown and unshared users answer alike.
 */
const addableBy = (auth: UserAuth) => auth.platformRole === "admin" ? undefined : sql`exists (
  select 1 from ${memberships} theirs join ${memberships} mine on mine.group_id = theirs.group_id
  where theirs.user_id = ${users.id} and mine.user_id = ${auth.userId})`;

function assertMayTouch(actorRole: GroupRole, roles: (GroupRole | undefined)[]) {
  if (actorRole !== "owner" && roles.includes("owner")) throw forbidden("Only owners may grant or change the owner role");
}

async function findMember(c: Parameters<AppRouteHandler<typeof routes.update>>[0], groupId: string, userId: string) {
  const member = await c.var.db.select(memberColumns).from(memberships).innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.groupId, groupId), eq(memberships.userId, userId))).get();
  if (!member) throw notFound("Member");
  return member;
}

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { group } = await groupAccess(c.var.db, c.var.auth, c.req.valid("param").id, "read");
  const { limit, cursor } = c.req.valid("query");
  const rows = await c.var.db.select(memberColumns).from(memberships).innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.groupId, group.id), afterCursor({ createdAt: memberships.createdAt, id: memberships.userId }, cursor)))
    .orderBy(asc(memberships.createdAt), asc(memberships.userId)).limit(limit + 1).all();
  return c.json(toPage(rows, limit, present), 200);
};

export const add: AppRouteHandler<typeof routes.add> = async (c) => {
  const { group, role: actorRole } = await groupAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  const body = c.req.valid("json");
  assertMayTouch(actorRole, [body.role]);
  const user = await c.var.db.select().from(users)
    .where(and(body.userId ? eq(users.id, body.userId) : eq(users.email, body.email!), addableBy(c.var.auth))).get();
  if (!user) throw new ApiError("not_found", "No such user among the people you share a group with; send an invite instead");
  const now = nowIso();
  const inserted = await c.var.db.insert(memberships)
    .values({ groupId: group.id, userId: user.id, role: body.role, createdAt: now, updatedAt: now })
    .onConflictDoNothing().returning({ userId: memberships.userId });
  if (inserted.length === 0) throw conflict("The user is already a member; change the role instead");
  return c.json({ userId: user.id, email: user.email, name: user.name, role: body.role, createdAt: now, updatedAt: now }, 201);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id, userId } = c.req.valid("param");
  const { group, role: actorRole } = await groupAccess(c.var.db, c.var.auth, id, "manage");
  const member = await findMember(c, group.id, userId);
  const { role } = c.req.valid("json");
  assertMayTouch(actorRole, [role, member.role]);
  // Viewers hold no devices: demotion to viewer takes them out like removal does (same 409 for hops).
  const losesDevices = role === "viewer";
  if (losesDevices) await assertNoHopDevices(c.var.db, userId, group.id);
  const now = nowIso();
  const changed = await c.var.db.update(memberships).set({ role, updatedAt: now })
    .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, userId), role === "owner" ? undefined : anotherOwnerRemains(group.id, userId)))
    .returning({ userId: memberships.userId });
  if (changed.length === 0) throw conflict("A group keeps at least one owner");
  // Listed after the role change committed: an enrolment committed before is found here, one after is refused.
  if (losesDevices) await removeDevicesOf(c.env, c.var.db, userId, group.id);
  return c.json(present({ ...member, role, updatedAt: now }), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { id, userId } = c.req.valid("param");
  const leaving = userId === c.var.auth.userId;
  const { group, role: actorRole } = await groupAccess(c.var.db, c.var.auth, id, leaving ? "read" : "manage");
  const member = await findMember(c, group.id, userId);
  if (!leaving) assertMayTouch(actorRole, [member.role]);
  await assertNoHopDevices(c.var.db, userId, group.id);
  const removed = await c.var.db.delete(memberships)
    .where(and(eq(memberships.groupId, group.id), eq(memberships.userId, userId), anotherOwnerRemains(group.id, userId)))
    .returning({ userId: memberships.userId });
  if (removed.length === 0) throw conflict("A group keeps at least one owner");
  // Leaving the group means leaving its networks: the member's devices there go too. Listed after the
  // removal committed: an enrolment committed before is found here, one after is refused by its own write.
  await removeDevicesOf(c.env, c.var.db, userId, group.id);
  return c.body(null, 204);
};

