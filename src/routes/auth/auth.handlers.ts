import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { getConfig, type Config } from "../../lib/env";
import { unauthorized } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import type { AppRouteHandler } from "../../lib/types";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../../services/auth/password";
import { revokeSession, rotateRefreshToken } from "../../services/auth/sessions";
import { signIn } from "../../services/auth/sign-in";
import { countAttempt } from "../../services/throttle/throttle.limiter";
import { presentUser } from "../../lib/schemas/users";
import type * as routes from "./auth.routes";
import { presentSignIn } from "./auth.schemas";
import { sameText } from "../../lib/same-text";

/** DESIGN "Bootstrap": with no users at all, the configured credentials create the first platform admin. */
async function bootstrapAdmin(db: Db, config: Config, email: string, password: string) {
  const wanted = config.BOOTSTRAP_ADMIN_EMAIL?.trim().toLowerCase();
  if (!wanted || !config.BOOTSTRAP_ADMIN_PASSWORD || email !== wanted) return undefined;
  if (!sameText(password, config.BOOTSTRAP_ADMIN_PASSWORD)) return undefined;
  if (await db.select({ id: users.id }).from(users).limit(1).get()) return undefined;
  const now = nowIso();
  await db.insert(users).values({
    id: newId("usr"), email, name: "Administrator", passwordHash: await hashPassword(password),
    platformRole: "admin", createdAt: now, updatedAt: now,
  }).onConflictDoNothing();
  return db.select().from(users).where(eq(users.email, email)).get();
}

export const login: AppRouteHandler<typeof routes.login> = async (c) => {
  const { email, password } = c.req.valid("json");
  const config = getConfig(c.env);
  const db = c.var.db;
  // Counted before the password is checked (and refunded on success): a locked account is no oracle.
  const attempt = await countAttempt(c, "login", { account: email });
  const user = (await db.select().from(users).where(eq(users.email, email)).get())
    ?? (await bootstrapAdmin(db, config, email, password));
  if (!user?.passwordHash) {
    await burnPasswordCheck(password);
    throw unauthorized("Invalid email or password");
  }
  // A disabled account pays the same hash and gets the same answer whether or not the password is right:
  // a distinct "disabled" answer to the right password only would tell a guesser which one is right.
  const passwordMatches = await verifyPassword(password, user.passwordHash);
  if (!passwordMatches || user.disabledAt) throw unauthorized("Invalid email or password");
  await attempt.succeeded();
  return c.json(presentSignIn(await signIn(db, config, user)), 200);
};

export const refresh: AppRouteHandler<typeof routes.refresh> = async (c) => {
  const pair = await rotateRefreshToken(c.var.db, getConfig(c.env), c.req.valid("json").refreshToken);
  return c.json({ ...pair, user: presentUser(pair.user) }, 200);
};

export const logout: AppRouteHandler<typeof routes.logout> = async (c) => {
  await revokeSession(c.var.db, c.var.auth.sessionId, "logout");
  return c.body(null, 204);
};
