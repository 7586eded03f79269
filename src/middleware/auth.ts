import { and, eq } from "drizzle-orm";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { Db } from "../db/client";
import { sessions, users } from "../db/schema";
import { getConfig } from "../lib/env";
import { ApiError, forbidden, unauthorized } from "../lib/errors";
import { nowIso } from "../lib/ids";
import type { AppEnv, PlatformRole, UserPrincipal } from "../lib/types";
import { AUDIENCE, verifyAccessToken } from "../services/auth/jwt";
import { currentGeneration, recentlyLive, rememberLive, sessionKey } from "../services/auth/session-cache";
import { countIfRefused, heldBackFor } from "../services/throttle/refused-writes";

export function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim()) : null;
  return match?.[1] ?? null;
}

/** Live session, user not disabled, and the role the token claims still the user's role. */
export async function sessionIsLive(db: Db, userId: string, sessionId: string, claimedRole: PlatformRole): Promise<boolean> {
  const row = await db
    .select({
      platformRole: users.platformRole,
      disabledAt: users.disabledAt,
      revokedAt: sessions.revokedAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .get();
  return !!row && !row.disabledAt && !row.revokedAt && row.expiresAt > nowIso() && row.platformRole === claimedRole;
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/**
 * A valid user access token whose session is live. The session read makes logout, refresh-token reuse,
 * disabling and role changes take effect at once for writes, which wait for it before they start. For
 * reads it runs concurrently with the handler and a failed check replaces whatever the handler produced
 * with 401 (reads have no side effects, so nothing leaks and nothing changes); a session found live a
 * moment ago in this isolate skips the read (services/auth/session-cache.ts).
 */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const principal = await userPrincipal(c);
  if (!SAFE_METHODS.has(c.req.method)) {
    if (!(await sessionIsLive(c.var.db, principal.userId, principal.sessionId, principal.platformRole))) throw sessionEnded();
    return next();
  }
  return readChecked(c, principal, next);
};

/**
 * requireUser for routes whose writes the network's writer authorises (the `userWrites` guard): it checks
 * the session in the read that finds the caller's role, or takes a caller a committed batch proved and
 * leaves the check to the write's batch, whose guard re-checks session and role as it commits
 * (objects/network/authority/write-authority.ts, objects/network/authority/acting-authority.ts). A write through it costs no session read here;
 * every handler on that guard hands its caller to the writer. Reads are checked as requireUser checks them.
 */
export const requireUserForWriter: MiddlewareHandler<AppEnv> = async (c, next) => {
  const principal = await userPrincipal(c);
  if (SAFE_METHODS.has(c.req.method)) return readChecked(c, principal, next);
  // Refused writes are limited per user across networks (services/throttle/refused-writes.ts).
  const held = heldBackFor(principal.userId);
  if (held) throw held;
  await next();
  await countIfRefused(c.env, getConfig(c.env), principal.userId, c.res.status);
};

/** A valid user access token: the principal it names (its session not yet checked). */
async function userPrincipal(c: Context<AppEnv>): Promise<UserPrincipal> {
  const token = bearerToken(c.req.header("authorization"));
  if (!token) throw unauthorized("A bearer access token is required");
  const payload = await verifyAccessToken(getConfig(c.env), AUDIENCE.user, token);
  const { sub: userId, sid: sessionId, role } = payload ?? {};
  if (!userId || typeof sessionId !== "string" || (role !== "admin" && role !== "user")) {
    throw unauthorized("The access token is not valid");
  }
  const principal: UserPrincipal = { kind: "user", userId, sessionId, platformRole: role };
  c.set("principal", principal);
  return principal;
}

const sessionEnded = () => unauthorized("The session has ended; sign in again");

/** A read: the session check runs beside the handler, and an ended session replaces its answer with 401. */
async function readChecked(c: Context<AppEnv>, { userId, sessionId, platformRole }: UserPrincipal, next: Next) {
  const key = sessionKey(userId, sessionId, platformRole);
  if (recentlyLive(key)) return next();
  const startedAt = currentGeneration();
  const verdict = sessionIsLive(c.var.db, userId, sessionId, platformRole)
    .then((live) => {
      if (live) rememberLive(key, startedAt);
      return live;
    })
    .catch(() => false);
  await next();
  if (!(await verdict)) replaceWithUnauthorized(c);
}

/** A fresh response: nothing the handler set (ETag, content headers) may survive into the 401. */
function replaceWithUnauthorized(c: Context<AppEnv>) {
  const error = new ApiError("unauthorized", "The session has ended; sign in again");
  c.res = undefined as unknown as Response; // Hono copies the old response's headers into a new one otherwise
  c.res = new Response(JSON.stringify(error.toBody()), {
    status: 401,
    headers: { "Content-Type": "application/json", "WWW-Authenticate": 'Bearer realm="api"' },
  });
}

/** Enrolment, invite acceptance: a user's token when one is sent; without one the body must prove the right. */
export const optionalUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.req.header("authorization")) return next();
  return requireUser(c, next);
};

/** Inventory, agents, users and platform settings are changed by platform admins only (the token's role, checked live by requireUser). */
export function requirePlatformAdmin(user: UserPrincipal) {
  if (user.platformRole !== "admin") throw forbidden("Only platform admins may do this");
}
