import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import type { AppRouteHandler } from "../../lib/types";
import { confirmPassword } from "../../services/auth/confirm-password";
import { hashPassword } from "../../services/auth/password";
import { revokeAllSessions } from "../../services/auth/sign-in";
import type * as routes from "./me.routes";
import { presentUser } from "../../lib/schemas/users";
import { forgetLiveSessions } from "../../services/auth/session-cache";

async function caller(c: { var: { db: import("../../db/client").Db; auth: { userId: string } } }) {
  const user = await c.var.db.select().from(users).where(eq(users.id, c.var.auth.userId)).get();
  if (!user) throw notFound("User");
  return user;
}

export const me: AppRouteHandler<typeof routes.me> = async (c) => c.json(presentUser(await caller(c)), 200);

export const updateMe: AppRouteHandler<typeof routes.updateMe> = async (c) => {
  const user = await caller(c);
  const next = { ...user, name: c.req.valid("json").name, updatedAt: nowIso() };
  await c.var.db.update(users).set({ name: next.name, updatedAt: next.updatedAt }).where(eq(users.id, user.id));
  return c.json(presentUser(next), 200);
};

export const changePassword: AppRouteHandler<typeof routes.changePassword> = async (c) => {
  const user = await caller(c);
  const { currentPassword, newPassword } = c.req.valid("json");
  await confirmPassword(c, user, currentPassword, "current password");
  const now = nowIso();
  await c.var.db.batch([
    c.var.db.update(users).set({ passwordHash: await hashPassword(newPassword), updatedAt: now }).where(eq(users.id, user.id)),
    revokeAllSessions(c.var.db, user.id, "password_changed", c.var.auth.sessionId),
  ]);
  forgetLiveSessions();
  return c.body(null, 204);
};
