import { getConfig } from "../../lib/env";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { userOf } from "../../lib/principal";
import type { AppEnv } from "../../lib/types";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { confirmPassword } from "../auth/confirm-password";
import { hashPassword } from "../auth/password";
import { forgetLiveSessions } from "../auth/session-cache";
import { revokeAllSessions } from "../auth/sign-in";
import { type User, userEvent } from "./users";

/** The signed-in user's own account. */
export async function ownAccount(db: Db, userId: string): Promise<User> {
  const user = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw notFound("User");
  return user;
}

/** Renames the caller's account; the audit row names it. */
export async function renameOwnAccount(db: Db, userId: string, name: string, audit: AuditContext): Promise<User> {
  const user = await ownAccount(db, userId);
  const next = { ...user, name, updatedAt: nowIso() };
  await db.batch([
    db.update(users).set({ name: next.name, updatedAt: next.updatedAt }).where(eq(users.id, user.id)),
    auditStatement(db, audit, userEvent("user.renamed", user.id), next.updatedAt),
  ]);
  return next;
}

/**
 * A new password for the caller, proven by the current one (counted like sign-in attempts); every other
 * session ends in the same commit. The audit row names no resource (the route has no id), as before.
 */
export async function changeOwnPassword(c: Context<AppEnv>, currentPassword: string, newPassword: string, audit: AuditContext) {
  const { db } = c.var;
  const auth = userOf(c);
  const user = await ownAccount(db, auth.userId);
  await confirmPassword(c, user, currentPassword, "current password");
  const now = nowIso();
  await db.batch([
    db
      .update(users)
      .set({ passwordHash: await hashPassword(newPassword, getConfig(c.env).PASSWORD_SCRYPT_LOG_N), updatedAt: now })
      .where(eq(users.id, user.id)),
    revokeAllSessions(db, user.id, "password_changed", auth.sessionId),
    auditStatement(db, audit, userEvent("user.password_changed", null), now),
  ]);
  forgetLiveSessions();
}
