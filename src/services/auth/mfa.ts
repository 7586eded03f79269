import { and, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { mfaChallenges, mfaFactors, recoveryCodes, sessions } from "../../db/schema";
import type { Config } from "../../lib/env";
import { conflict, domainError } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { seal, unseal } from "./secret-box";
import { sha256 } from "./tokens";
import { base32Encode, matchingStep, otpauthUri, TOTP } from "./totp";

const PURPOSE = "totp-secret v1";
export const RECOVERY_CODE_COUNT = 10;
const TOTP_CODE = /^\d{6}$/;

/** MFA rows name no resource: the audit row's actor is the account (as before, the routes have no ids). */
const mfaEvent = (action: string) => ({ action, resourceId: null, groupId: null, networkId: null });

export const getFactor = (db: Db, userId: string) => db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).get();

export async function isMfaActive(db: Db, userId: string): Promise<boolean> {
  return Boolean((await getFactor(db, userId))?.activatedAt);
}

/** A new secret for the user (replacing a pending one); MFA turns on only once a code proves the app has it. */
export async function enrol(db: Db, config: Config, userId: string, email: string, audit: AuditContext) {
  const existing = await getFactor(db, userId);
  if (existing?.activatedAt) throw conflict("MFA is already active; disable it first to enrol a new authenticator");
  const secret = crypto.getRandomValues(new Uint8Array(TOTP.secretBytes));
  const now = nowIso();
  const row = { secretCiphertext: await seal(config, PURPOSE, secret, userId), activatedAt: null, lastUsedStep: null, updatedAt: now };
  await db.batch([
    auditStatement(db, audit, mfaEvent("mfa.enrolled"), now),
    db
      .insert(mfaFactors)
      .values({ userId, createdAt: now, ...row })
      .onConflictDoUpdate({ target: mfaFactors.userId, set: row, setWhere: isNull(mfaFactors.activatedAt) }),
  ]);
  const encoded = base32Encode(secret);
  return { secret: encoded, otpauthUri: otpauthUri(new URL(config.JWT_ISSUER).host, email, encoded) };
}

/** 80 random bits each, shown once as xxxx-xxxx-xxxx-xxxx; stored as SHA-256 salted with the user id. */
function newRecoveryCode(): string {
  const raw = base32Encode(crypto.getRandomValues(new Uint8Array(10))).toLowerCase();
  return raw.match(/.{4}/g)!.join("-");
}
const recoveryHash = (userId: string, code: string) => sha256(`${userId}:${code.toLowerCase().replace(/[^a-z2-7]/g, "")}`);

/**
 * Turns MFA on and, in the same batch, ends every other session of the account (as a password change
 * does): a session signed in with the password alone must not outlive the second factor. The caller's
 * own session (`keepSessionId`) stays. The caller forgets the session cache once this returns.
 */
export async function activate(
  db: Db,
  config: Config,
  userId: string,
  code: string,
  keepSessionId: string,
  audit: AuditContext,
): Promise<string[]> {
  const factor = await getFactor(db, userId);
  if (!factor) throw domainError("Enrol first: POST /auth/mfa/enroll");
  if (factor.activatedAt) throw conflict("MFA is already active");
  const secret = await unseal(config, PURPOSE, factor.secretCiphertext, userId);
  const step = TOTP_CODE.test(code) ? await matchingStep(secret, code, null) : null;
  if (step === null) throw domainError("The code does not match; check the authenticator's clock and try again");
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const now = nowIso();
  const turnedOn = sql`exists (select 1 from mfa_factors f where f.user_id = ${userId} and f.activated_at = ${now})`;
  const [activated] = await db.batch([
    db
      .update(mfaFactors)
      .set({ activatedAt: now, lastUsedStep: step, updatedAt: now })
      .where(and(eq(mfaFactors.userId, userId), isNull(mfaFactors.activatedAt), eq(mfaFactors.secretCiphertext, factor.secretCiphertext)))
      .returning({ userId: mfaFactors.userId }),
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    db.insert(recoveryCodes).values(
      codes.map((value) => ({
        id: newId("rc"),
        userId,
        codeHash: recoveryHash(userId, value),
        createdAt: now,
      })),
    ),
    // Only when this activation is the one that turned MFA on (a lost race revokes nothing).
    db
      .update(sessions)
      .set({ revokedAt: now, revokedReason: "mfa_enabled" })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, keepSessionId), turnedOn)),
    auditStatement(db, audit, mfaEvent("mfa.activated"), now, turnedOn),
  ]);
  // Lost a race with another enrolment or activation: the codes just written belong to nobody's secret.
  if (activated.length === 0) {
    await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    throw conflict("The enrolment changed meanwhile; enrol again");
  }
  return codes;
}

/**
 * Checks a second factor: a TOTP code of a step newer than the last accepted one, or an unused recovery
 * code. Both are consumed with a compare-and-set, so two concurrent uses of one code cannot both pass.
 */
export async function verifySecondFactor(db: Db, config: Config, userId: string, code: string): Promise<boolean> {
  const factor = await getFactor(db, userId);
  if (!factor?.activatedAt) return false;
  const trimmed = code.trim();
  if (TOTP_CODE.test(trimmed)) {
    // Unreadable after a TOKEN_SECRET rotation: TOTP fails, recovery codes still work (docs/identity.md).
    const secret = await unseal(config, PURPOSE, factor.secretCiphertext, userId).catch(() => null);
    if (!secret) return false;
    const step = await matchingStep(secret, trimmed, factor.lastUsedStep);
    if (step === null) return false;
    const won = await db
      .update(mfaFactors)
      .set({ lastUsedStep: step, updatedAt: nowIso() })
      .where(and(eq(mfaFactors.userId, userId), or(isNull(mfaFactors.lastUsedStep), lt(mfaFactors.lastUsedStep, step))))
      .returning({ userId: mfaFactors.userId });
    return won.length > 0;
  }
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: nowIso() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, recoveryHash(userId, trimmed)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

export async function status(db: Db, userId: string) {
  const factor = await getFactor(db, userId);
  const remaining = await db
    .select({ count: sql<number>`count(*)` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
    .get();
  return {
    enabled: Boolean(factor?.activatedAt),
    pending: Boolean(factor && !factor.activatedAt),
    activatedAt: factor?.activatedAt ?? null,
    recoveryCodesRemaining: factor?.activatedAt ? Number(remaining?.count ?? 0) : 0,
  };
}

export async function disable(db: Db, userId: string, audit: AuditContext) {
  await db.batch([
    auditStatement(db, audit, mfaEvent("mfa.disabled")),
    db.delete(mfaFactors).where(eq(mfaFactors.userId, userId)),
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    db.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId)),
  ]);
}
