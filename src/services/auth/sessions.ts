import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { refreshTokens, sessions, users } from "../../db/schema";
import { unauthorized } from "../../lib/errors";
import type { Config } from "../../lib/env";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { configInForce } from "../settings/settings";
import { AUDIENCE, signAccessToken } from "./jwt";
import { randomToken, sha256, successorOf } from "./tokens";
import { forgetLiveSessions } from "./session-cache";
import { type AuditContext, auditStatement, type DomainEvent } from "../audit/audit-trail";
import { signedInAs } from "./signed-in-actor";

const sessionEvent = (action: string, userId: string | null): DomainEvent => ({
  action,
  resourceId: userId,
  groupId: null,
  networkId: null,
});

/** A retry with the just-rotated token inside this window gets the same successor (concurrent CLI calls). */
export const REUSE_GRACE_MS = 10_000;

type User = typeof users.$inferSelect;

async function tokenPair(config: Config, user: User, sessionId: string, refreshToken: string) {
  // The role rides in the token so reads need not wait for the user row; the per-request session check
  // still compares it with the stored role, so a changed role ends the token at once.
  const claims = { sid: sessionId, role: user.platformRole };
  const accessToken = await signAccessToken(config, AUDIENCE.user, user.id, claims, config.ACCESS_TOKEN_TTL_SECONDS);
  return { accessToken, refreshToken, tokenType: "Bearer" as const, expiresIn: config.ACCESS_TOKEN_TTL_SECONDS, user };
}

/**
 * A new session and its first refresh token. `audit`: the sign-in request it serves, whose row (actor:
 * the account signed in) commits with the session; absent when the request audits elsewhere (an invite
 * acceptance that created the account records the join).
 */
export async function startSession(db: Db, envConfig: Config, user: User, audit?: AuditContext) {
  const config = await configInForce(envConfig, db);
  const sessionId = newId("ses");
  const token = randomToken();
  const now = nowIso();
  await db.batch([
    db
      .insert(sessions)
      .values({ id: sessionId, userId: user.id, createdAt: now, expiresAt: secondsFromNow(config.SESSION_MAX_AGE_SECONDS) }),
    db.insert(refreshTokens).values({
      id: newId("rt"),
      sessionId,
      tokenHash: sha256(token),
      createdAt: now,
      expiresAt: secondsFromNow(config.REFRESH_TOKEN_TTL_SECONDS),
    }),
    ...(audit ? [auditStatement(db, signedInAs(audit, user.id), sessionEvent("session.started", user.id), now)] : []),
  ]);
  return tokenPair(config, user, sessionId, token);
}

/** Ends a session; `audit`: the logout it serves, whose row commits with it. */
export async function revokeSession(db: Db, sessionId: string, reason: string, audit?: AuditContext) {
  const now = nowIso();
  await db.batch([
    db
      .update(sessions)
      .set({ revokedAt: now, revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt))),
    ...(audit ? [auditStatement(db, audit, sessionEvent("session.ended", null), now)] : []),
  ]);
  forgetLiveSessions();
}

/**
 * Exchanges a refresh token for a new pair; a replayed token revokes its whole family. The audit row
 * (actor: the session's account) commits with the rotation; a retry inside the grace window writes
 * nothing else, so its row is written alone.
 */
export async function rotateRefreshToken(db: Db, envConfig: Config, token: string, audit: AuditContext) {
  const config = await configInForce(envConfig, db);
  const row = await db
    .select({ token: refreshTokens, session: sessions, user: users })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(refreshTokens.tokenHash, sha256(token)))
    .get();
  const now = nowIso();
  if (!row || row.session.revokedAt || row.user.disabledAt || row.session.expiresAt <= now) {
    throw unauthorized("The refresh token is not valid");
  }
  const successor = successorOf(config, token);
  const successorHash = sha256(successor);

  if (row.token.usedAt !== null) {
    const next = await db
      .select({ usedAt: refreshTokens.usedAt })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, successorHash))
      .get();
    const withinGrace = Date.now() - row.token.usedAt <= REUSE_GRACE_MS;
    if (!withinGrace || !next || next.usedAt !== null) {
      await revokeSession(db, row.session.id, "refresh_token_reuse");
      throw unauthorized("The refresh token was already used; the session has been revoked");
    }
    await auditStatement(db, signedInAs(audit, row.user.id), sessionEvent("session.refreshed", row.user.id), now);
    return tokenPair(config, row.user, row.session.id, successor);
  }
  if (row.token.expiresAt <= now) throw unauthorized("The refresh token has expired");

  // One batch is one transaction: the old token is consumed exactly when its successor exists.
  await db.batch([
    db
      .update(refreshTokens)
      .set({ usedAt: sql`coalesce(${refreshTokens.usedAt}, ${Date.now()})` })
      .where(eq(refreshTokens.id, row.token.id)),
    db
      .insert(refreshTokens)
      .values({
        id: newId("rt"),
        sessionId: row.session.id,
        tokenHash: successorHash,
        parentId: row.token.id,
        createdAt: now,
        expiresAt: secondsFromNow(config.REFRESH_TOKEN_TTL_SECONDS),
      })
      .onConflictDoNothing(),
    auditStatement(db, signedInAs(audit, row.user.id), sessionEvent("session.refreshed", row.user.id), now),
  ]);
  return tokenPair(config, row.user, row.session.id, successor);
}
