import { eq } from "drizzle-orm";
import { userOf } from "../../lib/principal";
import type { Context } from "hono";
import { users } from "../../db/schema";
import { getConfig } from "../../lib/env";
import { domainError, unauthorized } from "../../lib/errors";
import type { AppEnv } from "../../lib/types";
import type { AuditContext } from "../audit/audit-trail";
import { countAttempt } from "../throttle/throttle.limiter";
import { confirmPassword } from "./confirm-password";
import * as mfa from "./mfa";
import { forgetLiveSessions } from "./session-cache";

/** The signed-in caller's account, as the MFA settings need it. */
async function caller(c: Context<AppEnv>) {
  const user = await c.var.db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userOf(c).userId))
    .get();
  if (!user) throw unauthorized();
  return user;
}

/** A new TOTP secret for the caller (replacing a pending one). */
export async function startMfaEnrolment(c: Context<AppEnv>, audit: AuditContext) {
  const { email } = await caller(c);
  return mfa.enrol(c.var.db, getConfig(c.env), userOf(c).userId, email, audit);
}

/** Turns MFA on with a first code and the account's password; answers the recovery codes. */
export async function turnOnMfa(c: Context<AppEnv>, code: string, password: string, audit: AuditContext): Promise<string[]> {
  const user = await caller(c);
  // Turning MFA on locks out whoever lacks the authenticator: a stolen access token alone must not do it.
  await confirmPassword(c, user, password, "password");
  const codes = await mfa.activate(c.var.db, getConfig(c.env), userOf(c).userId, code, userOf(c).sessionId, audit);
  // The other sessions just ended: reads must re-check them in D1 (session-cache.ts).
  forgetLiveSessions();
  return codes;
}

/** Turns MFA off with a fresh second factor (counted like sign-in attempts). */
export async function turnOffMfa(c: Context<AppEnv>, code: string, audit: AuditContext): Promise<void> {
  const { userId } = userOf(c);
  if (!(await mfa.isMfaActive(c.var.db, userId))) throw domainError("MFA is not on");
  const attempt = await countAttempt(c, "mfa", { account: userId });
  if (!(await mfa.verifySecondFactor(c.var.db, getConfig(c.env), userId, code))) {
    throw domainError("The code is not valid (a code works once; wait for the next one)");
  }
  await attempt.succeeded();
  await mfa.disable(c.var.db, userId, audit);
}
