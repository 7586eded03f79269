import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { users } from "../../db/schema";
import { getConfig } from "../../lib/env";
import { unauthorized } from "../../lib/errors";
import type { AppEnv } from "../../lib/types";
import type { AuditContext } from "../audit/audit-trail";
import { recordLoginFailure } from "../metrics/counters";
import { countAttempt } from "../throttle/throttle.limiter";
import { verifySecondFactor } from "./mfa";
import { completeChallenge, findChallenge, invalidChallenge, spendAttempt } from "./mfa-challenge";
import { startSession } from "./sessions";

/**
 * Finishes a sign-in that answered mfaRequired: one try of the challenge's budget, throttled per client
 * address and per account; the session (and its audit row, the account as actor) starts on a valid code.
 */
export async function finishMfaSignIn(c: Context<AppEnv>, mfaToken: string, code: string, audit: AuditContext) {
  const { db } = c.var;
  const config = getConfig(c.env);
  const fromAddress = await countAttempt(c, "mfa", {});
  const challenge = await findChallenge(db, mfaToken);
  const forAccount = await countAttempt(c, "mfa", { account: challenge.userId, address: false });
  const triesLeft = await spendAttempt(db, challenge.id);
  if (!(await verifySecondFactor(db, config, challenge.userId, code))) {
    await recordLoginFailure(db, "mfa");
    throw unauthorized(triesLeft > 0 ? `The code is not valid (${triesLeft} tries left)` : "The code is not valid; sign in again");
  }
  await completeChallenge(db, challenge.id);
  await Promise.all([fromAddress.succeeded(), forAccount.succeeded()]);
  const user = await db.select().from(users).where(eq(users.id, challenge.userId)).get();
  // Disabled between the lookup and now: the answer a wrong code would have had for it (findChallenge).
  if (!user || user.disabledAt) throw invalidChallenge();
  return startSession(db, config, user, audit);
}
