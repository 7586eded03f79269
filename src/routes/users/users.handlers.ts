import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memberships, users } from "../../db/schema";
import { conflict, domainError, forbidden, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler, UserAuth } from "../../lib/types";
import { hashPassword } from "../../services/auth/password";
import { revokeAllSessions } from "../../services/auth/sign-in";
import { assertNoHopDevices, ONLY_AS_PLATFORM_ADMIN, removeDevicesOf } from "../../services/networks/operations/device-lifecycle";
import { requirePlatformAdmin } from "../../middleware/auth";
import type * as routes from "./users.routes";
import { presentUser } from "../../lib/schemas/users";
import { forgetLiveSessions } from "../../services/auth/session-cache";

// Kept for the admin, agents and inventory routes until they import it from middleware/auth (dropped at merge).
export { requirePlatformAdmin } from "../../middleware/auth";

/**
 * `me` or the caller's own id: anyone. Another id: platform admins only; to everyone else another user
 * does not exist (404, no enumeration of ids).
 */
export async function visibleUser(db: Db, auth: UserAuth, id: string) {
  const userId = id === "me" ? auth.userId : id;
  if (userId !== auth.userId && auth.platformRole !== "admin") throw notFound("User");
  const user = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw notFound("User");
  return user;
}

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const body = c.req.valid("json");
  const now = nowIso();
  const row = {
    id: newId("usr"), email: body.email, name: body.name, passwordHash: await hashPassword(body.password),
    platformRole: body.platformRole, disabledAt: null, createdAt: now, updatedAt: now,
  };
  const inserted = await c.var.db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id });
  if (inserted.length === 0) throw conflict("A user with this email already exists");
  return c.json(presentUser(row), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const { limit, cursor, email } = c.req.valid("query");
  const rows = await c.var.db.select().from(users)
    .where(and(email ? eq(users.email, email) : undefined, afterCursor(users, cursor)))
    .orderBy(asc(users.createdAt), asc(users.id)).limit(limit + 1).all();
  return c.json(toPage(rows, limit, presentUser), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) =>
  c.json(presentUser(await visibleUser(c.var.db, c.var.auth, c.req.valid("param").id)), 200);

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const user = await visibleUser(c.var.db, c.var.auth, c.req.valid("param").id);
  requirePlatformAdmin(c.var.auth);
  const body = c.req.valid("json");
  const self = user.id === c.var.auth.userId;
  if (self && ((body.platformRole && body.platformRole !== user.platformRole) || body.disabled === true)) {
    throw domainError("Admins cannot demote or disable themselves; ask another admin");
  }
  const now = nowIso();
  const disabledAt = body.disabled === undefined ? user.disabledAt : body.disabled ? (user.disabledAt ?? now) : null;
  const next = { ...user, name: body.name ?? user.name, platformRole: body.platformRole ?? user.platformRole, disabledAt, updatedAt: now };
  const { db } = c.var;
  const write = db.update(users).set({ name: next.name, platformRole: next.platformRole, disabledAt, updatedAt: now }).where(eq(users.id, user.id));
  // Disabling and ending the sessions commit together: no window where a disabled user keeps a live refresh token.
  if (disabledAt && !user.disabledAt) {
    await assertNoHopDevices(db, user.id);
    await db.batch([write, revokeAllSessions(db, user.id, "user_disabled")]);
    forgetLiveSessions();
    // Disabling cuts network access too: the devices leave their networks (re-enrol after re-enabling).
    // Listed after the disabling committed: enrolments committing later are refused by their own write.
    await removeDevicesOf(c.env, db, user.id);
  }
  else if (user.platformRole === "admin" && next.platformRole === "user") {
    // Demoted: devices the user held only as a platform admin (no device-holding membership there) go,
    // listed after the demotion committed, exactly as for a removal from their groups.
    await assertNoHopDevices(db, user.id, ONLY_AS_PLATFORM_ADMIN);
    await write;
    forgetLiveSessions();
    await removeDevicesOf(c.env, db, user.id, ONLY_AS_PLATFORM_ADMIN);
  }
  else await write;
  // The role claim or the disabled flag may have changed: reads re-check their sessions in D1.
  forgetLiveSessions();
  return c.json(presentUser(next), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const user = await visibleUser(c.var.db, c.var.auth, c.req.valid("param").id);
  requirePlatformAdmin(c.var.auth);
  if (user.id === c.var.auth.userId) throw domainError("Admins cannot delete their own account");
  const soleOwner = await c.var.db.select({ groupId: memberships.groupId }).from(memberships)
    .where(and(eq(memberships.userId, user.id), eq(memberships.role, "owner"),
      sql`not exists (select 1 from ${memberships} o where o.group_id = ${memberships.groupId} and o.role = 'owner' and o.user_id <> ${user.id})`))
    .limit(1).get();
  if (soleOwner) throw conflict(`The user is the only owner of group ${soleOwner.groupId}; transfer ownership first`);
  const { db } = c.var;
  await assertNoHopDevices(db, user.id);
  // Access ends first (disabled, sessions revoked) in one commit, so no enrolment can commit after it;
  // then the devices leave through their networks' writers (a deleted user's laptop must leave every
  // peer's config), listed after that commit; then the account goes. Deleting first would cascade the
  // device rows away and leave their nodes behind. If a later step fails the account stays disabled.
  await db.batch([
    db.update(users).set({ disabledAt: user.disabledAt ?? nowIso(), updatedAt: nowIso() }).where(eq(users.id, user.id)),
    revokeAllSessions(db, user.id, "user_deleted"),
  ]);
  forgetLiveSessions();
  await removeDevicesOf(c.env, db, user.id);
  await db.delete(users).where(and(eq(users.id, user.id), ne(users.id, c.var.auth.userId)));
  forgetLiveSessions();
  return c.body(null, 204);
};
