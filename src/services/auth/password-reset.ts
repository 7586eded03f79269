import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { passwordResets, users } from "../../db/schema";
import type { Config } from "../../lib/env";
import { domainError } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import type { Mailer } from "../mail/mail.types";
import { passwordResetMessage } from "../mail/messages";
import { hashPassword } from "./password";
import { revokeAllSessions } from "./sign-in";
import { randomToken, sha256 } from "./tokens";
import { forgetLiveSessions } from "./session-cache";
import { type AuditContext, auditStatement } from "../audit/audit-trail";

/**
 * Issues a token and mails it when the email belongs to an enabled account; does nothing otherwise. The
 * caller answers the same either way. A newer request supersedes older unused tokens.
 */
export async function requestPasswordReset(db: Db, config: Config, mailer: Mailer, email: string): Promise<void> {
  const user = await db.select().from(users).where(eq(users.email, email)).get();
  if (!user || user.disabledAt) return;
  const token = `prt_${randomToken()}`;
  const now = nowIso();
  await db.batch([
    db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt))),
    db.insert(passwordResets).values({
      id: newId("prt"),
      userId: user.id,
      tokenHash: sha256(token),
      createdAt: now,
      expiresAt: secondsFromNow(config.PASSWORD_RESET_TTL_SECONDS),
    }),
  ]);
  await mailer.send(passwordResetMessage(config, user.email, token));
}

const invalidToken = () => domainError("The reset token is not valid, was already used or has expired");

/**
 * Consumes the token (compare-and-set), sets the password and ends every session of the account; the
 * audit row commits with the new password (the actor stays anonymous: nobody signs in here).
 */
export async function confirmPasswordReset(db: Db, config: Config, token: string, newPassword: string, audit: AuditContext): Promise<void> {
  const now = nowIso();
  const claimed = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.tokenHash, sha256(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
    .returning({ userId: passwordResets.userId });
  const userId = claimed[0]?.userId;
  if (!userId) throw invalidToken();
  const user = await db.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, userId)).get();
  if (!user || user.disabledAt) throw invalidToken();
  await db.batch([
    db
      .update(users)
      .set({ passwordHash: await hashPassword(newPassword, config.PASSWORD_SCRYPT_LOG_N), updatedAt: now })
      .where(eq(users.id, userId)),
    revokeAllSessions(db, userId, "password_reset"),
    db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt))),
    auditStatement(db, audit, { action: "user.password_reset", resourceId: null, groupId: null, networkId: null }, now),
  ]);
  forgetLiveSessions();
}
