import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { type Config, getConfig } from "../../lib/env";
import { unauthorized } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { sameText } from "../../lib/same-text";
import type { AppEnv } from "../../lib/types";
import type { AuditContext } from "../audit/audit-trail";
import { recordLoginFailure } from "../metrics/counters";
import { countAttempt } from "../throttle/throttle.limiter";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./password";
import { signIn, type SignInOutcome } from "./sign-in";

/** DESIGN "Bootstrap": with no users at all, the configured credentials create the first platform admin. */
async function bootstrapAdmin(db: Db, config: Config, email: string, password: string) {
  const wanted = config.BOOTSTRAP_ADMIN_EMAIL?.trim().toLowerCase();
  if (!wanted || !config.BOOTSTRAP_ADMIN_PASSWORD || email !== wanted) return undefined;
  if (!sameText(password, config.BOOTSTRAP_ADMIN_PASSWORD)) return undefined;
  if (await db.select({ id: users.id }).from(users).limit(1).get()) return undefined;
  const now = nowIso();
  await db
    .insert(users)
    .values({
      id: newId("usr"),
      email,
      name: "Administrator",
      passwordHash: await hashPassword(password, config.PASSWORD_SCRYPT_LOG_N),
      platformRole: "admin",
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  return db.select().from(users).where(eq(users.email, email)).get();
}

/** Sign-in with email and password: a token pair, or an MFA challenge when the account has MFA on. */
export async function passwordSignIn(c: Context<AppEnv>, email: string, password: string, audit: AuditContext): Promise<SignInOutcome> {
  const config = getConfig(c.env);
  const db = c.var.db;
  // Counted before the password is checked (and refunded on success): a locked account is no oracle.
  const attempt = await countAttempt(c, "login", { account: email });
  const user = (await db.select().from(users).where(eq(users.email, email)).get()) ?? (await bootstrapAdmin(db, config, email, password));
  if (!user?.passwordHash) {
    await burnPasswordCheck(password, config.PASSWORD_SCRYPT_LOG_N);
    await recordLoginFailure(db, "password");
    throw unauthorized("Invalid email or password");
  }
  // A disabled account pays the same hash and gets the same answer whether or not the password is right:
  // a distinct "disabled" answer to the right password only would tell a guesser which one is right.
  const passwordMatches = await verifyPassword(password, user.passwordHash);
  if (!passwordMatches || user.disabledAt) {
    await recordLoginFailure(db, "password");
    throw unauthorized("Invalid email or password");
  }
  await attempt.succeeded();
  return signIn(db, config, user, audit);
}
