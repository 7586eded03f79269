import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memberships, users } from "../../db/schema";
import { conflict, domainError, notFound } from "../../lib/errors";
import { requirePlatformAdmin } from "../../middleware/auth";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler, UserAuth } from "../../lib/types";
import { hashPassword } from "../../services/auth/password";
import { revokeAllSessions } from "../../services/auth/sign-in";
import { assertNoHopDevices, removeDevicesOf } from "../../services/networks/operations/device-lifecycle";
import type * as routes from "./users.routes";
import { presentUser } from "./users.schemas";
import { forgetLiveSessions } from "../../services/auth/session-cache";

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
    await removeDevicesOf(c.env, db, user.id);
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
  await assertNoHopDevices(c.var.db, user.id);
  // Devices first, through their networks' writers: a deleted user's laptop must leave every peer's config.
  await removeDevicesOf(c.env, c.var.db, user.id);
  await c.var.db.delete(users).where(and(eq(users.id, user.id), ne(users.id, c.var.auth.userId)));
  forgetLiveSessions();
  return c.body(null, 204);
};
