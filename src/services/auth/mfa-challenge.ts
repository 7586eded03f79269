import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { mfaChallenges, users } from "../../db/schema";
import type { Config } from "../../lib/env";
import { unauthorized } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { randomToken, sha256 } from "./tokens";

/** DESIGN: 5 tries per challenge; after that the password step must be repeated. */
export const MAX_CHALLENGE_ATTEMPTS = 5;

/**
 * The mfaToken handed out after a correct password (or OAuth callback) for an account with MFA on. Its
 * audit row commits with it; nobody is signed in yet, so the actor stays the request's (anonymous).
 */
export async function createChallenge(db: Db, config: Config, userId: string, audit: AuditContext): Promise<string> {
  const token = `mfa_${randomToken()}`;
  const now = nowIso();
  await db.batch([
    db.insert(mfaChallenges).values({
      id: newId("mfc"),
      userId,
      tokenHash: sha256(token),
      createdAt: now,
      expiresAt: secondsFromNow(config.MFA_CHALLENGE_TTL_SECONDS),
    }),
    auditStatement(db, audit, { action: "session.mfa_challenged", resourceId: null, groupId: null, networkId: null }, now),
  ]);
  return token;
}

/**
 * Also the answer for a challenge whose account was disabled after the password step: the same to a right
 * and a wrong code, so a disabled account is no oracle for its second factor.
 */
export const invalidChallenge = () => unauthorized("The MFA token is not valid, has expired or has no tries left; sign in again");

/**
 * The live challenge behind a token, without spending a try (used to key the throttle on its user). A
 * disabled account's challenge is dead: checked before any code is, so no code (TOTP step, recovery code)
 * is consumed for it either.
 */
export async function findChallenge(db: Db, token: string) {
  const found = await db
    .select({ challenge: mfaChallenges, disabledAt: users.disabledAt })
    .from(mfaChallenges)
    .innerJoin(users, eq(users.id, mfaChallenges.userId))
    .where(eq(mfaChallenges.tokenHash, sha256(token)))
    .get();
  const row = found?.challenge;
  if (!row || found.disabledAt || row.usedAt || row.expiresAt <= nowIso() || row.attempts >= MAX_CHALLENGE_ATTEMPTS)
    throw invalidChallenge();
  return row;
}

/** Spends one try atomically: concurrent guesses cannot exceed the budget. */
export async function spendAttempt(db: Db, challengeId: string) {
  const spent = await db
    .update(mfaChallenges)
    .set({ attempts: sql`${mfaChallenges.attempts} + 1` })
    .where(
      and(
        eq(mfaChallenges.id, challengeId),
        isNull(mfaChallenges.usedAt),
        lt(mfaChallenges.attempts, MAX_CHALLENGE_ATTEMPTS),
        gt(mfaChallenges.expiresAt, nowIso()),
      ),
    )
    .returning({ attempts: mfaChallenges.attempts });
  if (spent.length === 0) throw invalidChallenge();
  return MAX_CHALLENGE_ATTEMPTS - spent[0]!.attempts;
}

/** Consumes the challenge; only one verify can win it. */
export async function completeChallenge(db: Db, challengeId: string) {
  const done = await db
    .update(mfaChallenges)
    .set({ usedAt: nowIso() })
    .where(and(eq(mfaChallenges.id, challengeId), isNull(mfaChallenges.usedAt)))
    .returning({ id: mfaChallenges.id });
  if (done.length === 0) throw invalidChallenge();
}
