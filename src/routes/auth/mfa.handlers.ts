import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { getConfig } from "../../lib/env";
import { domainError, unauthorized } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/types";
import { confirmPassword } from "../../services/auth/confirm-password";
import * as mfa from "../../services/auth/mfa";
import { completeChallenge, findChallenge, invalidChallenge, spendAttempt } from "../../services/auth/mfa-challenge";
import { forgetLiveSessions } from "../../services/auth/session-cache";
import { startSession } from "../../services/auth/sessions";
import { countAttempt } from "../../services/throttle/throttle.limiter";
import { presentUser } from "../../lib/schemas/users";
import type * as routes from "./mfa.routes";

export const status: AppRouteHandler<typeof routes.status> = async (c) =>
  c.json(await mfa.status(c.var.db, c.var.auth.userId), 200);

export const enrol: AppRouteHandler<typeof routes.enrol> = async (c) => {
  const user = await c.var.db.select({ email: users.email }).from(users).where(eq(users.id, c.var.auth.userId)).get();
  if (!user) throw unauthorized();
  return c.json(await mfa.enrol(c.var.db, getConfig(c.env), c.var.auth.userId, user.email), 200);
};

export const activate: AppRouteHandler<typeof routes.activate> = async (c) => {
  const { code, password } = c.req.valid("json");
  const user = await c.var.db.select({ email: users.email, passwordHash: users.passwordHash }).from(users)
    .where(eq(users.id, c.var.auth.userId)).get();
  if (!user) throw unauthorized();
  // Turning MFA on locks out whoever lacks the authenticator: a stolen access token alone must not do it.
  await confirmPassword(c, user, password, "password");
  const codes = await mfa.activate(c.var.db, getConfig(c.env), c.var.auth.userId, code, c.var.auth.sessionId);
  // The other sessions just ended: reads must re-check them in D1 (session-cache.ts).
  forgetLiveSessions();
  return c.json({ recoveryCodes: codes }, 200);
};

export const verify: AppRouteHandler<typeof routes.verify> = async (c) => {
  const { mfaToken, code } = c.req.valid("json");
  const { db } = c.var;
  const config = getConfig(c.env);
  const fromAddress = await countAttempt(c, "mfa", {});
  const challenge = await findChallenge(db, mfaToken);
  const forAccount = await countAttempt(c, "mfa", { account: challenge.userId, address: false });
  const triesLeft = await spendAttempt(db, challenge.id);
  if (!(await mfa.verifySecondFactor(db, config, challenge.userId, code))) {
    throw unauthorized(triesLeft > 0 ? `The code is not valid (${triesLeft} tries left)` : "The code is not valid; sign in again");
  }
  await completeChallenge(db, challenge.id);
  await Promise.all([fromAddress.succeeded(), forAccount.succeeded()]);
  const user = await db.select().from(users).where(eq(users.id, challenge.userId)).get();
  // Disabled between the lookup and now: the answer a wrong code would have had for it (findChallenge).
  if (!user || user.disabledAt) throw invalidChallenge();
  const pair = await startSession(db, config, user);
  return c.json({ ...pair, user: presentUser(pair.user) }, 200);
};

export const disable: AppRouteHandler<typeof routes.disable> = async (c) => {
  const { userId } = c.var.auth;
  if (!(await mfa.isMfaActive(c.var.db, userId))) throw domainError("MFA is not on");
  const attempt = await countAttempt(c, "mfa", { account: userId });
  if (!(await mfa.verifySecondFactor(c.var.db, getConfig(c.env), userId, c.req.valid("json").code))) {
    throw domainError("The code is not valid (a code works once; wait for the next one)");
  }
  await attempt.succeeded();
  await mfa.disable(c.var.db, userId);
  return c.body(null, 204);
};
