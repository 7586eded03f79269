import { and, eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { sessions, users } from "../db/schema";
import { getConfig } from "../lib/env";
import { unauthorized } from "../lib/errors";
import { nowIso } from "../lib/ids";
import type { AppEnv } from "../lib/types";
import { AUDIENCE, verifyAccessToken } from "../services/auth/jwt";

export function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim()) : null;
  return match?.[1] ?? null;
}

/**
 * A valid user access token whose session is still live and whose user is not disabled. The session
 * check costs one indexed read but makes logout, refresh-token reuse and disabling take effect at once.
 */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  if (!token) throw unauthorized("A bearer access token is required");
  const payload = await verifyAccessToken(getConfig(c.env), AUDIENCE.user, token);
  const sessionId = payload?.sid;
  if (!payload?.sub || typeof sessionId !== "string") throw unauthorized("The access token is not valid");
  const row = await c.var.db.select({ platformRole: users.platformRole, disabledAt: users.disabledAt, session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, payload.sub)))
    .get();
  if (!row || row.disabledAt || row.session.revokedAt || row.session.expiresAt <= nowIso()) {
    throw unauthorized("The session has ended; sign in again");
  }
  c.set("auth", { kind: "user", userId: payload.sub, sessionId, platformRole: row.platformRole });
  await next();
};
