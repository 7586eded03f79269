import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sessions, type users } from "../../db/schema";
import type { Config } from "../../lib/env";
import { unauthorized } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { createChallenge } from "./mfa-challenge";
import { isMfaActive } from "./mfa";
import type { AuditContext } from "../audit/audit-trail";
import { startSession } from "./sessions";

type User = typeof users.$inferSelect;

export type MfaChallengeOutcome = { mfaRequired: true; mfaToken: string; expiresIn: number };
export type SignInOutcome = MfaChallengeOutcome | Awaited<ReturnType<typeof startSession>>;

/**
 * The last step of every sign-in path (password, OAuth): a disabled account stops here, and an account
 * with MFA on gets a challenge instead of tokens (DESIGN: MFA applies to every sign-in path).
 */
export async function signIn(db: Db, config: Config, user: User, audit: AuditContext): Promise<SignInOutcome> {
  if (user.disabledAt) throw unauthorized("The account is disabled");
  if (await isMfaActive(db, user.id)) {
    return { mfaRequired: true, mfaToken: await createChallenge(db, config, user.id, audit), expiresIn: config.MFA_CHALLENGE_TTL_SECONDS };
  }
  return startSession(db, config, user, audit);
}

export const isMfaChallenge = (outcome: SignInOutcome): outcome is MfaChallengeOutcome => "mfaRequired" in outcome;

/**
 * Ends every live session of a user (password reset, disabling, password change), optionally but one.
 * A statement for the caller's batch: call forgetLiveSessions() once it has committed.
 */
export function revokeAllSessions(db: Db, userId: string, reason: string, exceptSessionId?: string) {
  const live = and(eq(sessions.userId, userId), isNull(sessions.revokedAt));
  return db
    .update(sessions)
    .set({ revokedAt: nowIso(), revokedReason: reason })
    .where(exceptSessionId ? and(live, ne(sessions.id, exceptSessionId)) : live);
}
