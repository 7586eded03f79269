import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { conflict, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor } from "../../lib/pagination";
import type { PlatformRole, UserPrincipal } from "../../lib/types";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { hashPassword } from "../auth/password";

export type User = typeof users.$inferSelect;

export const userEvent = (action: string, userId: string | null) => ({ action, resourceId: userId, groupId: null, networkId: null });

/**
 * `me` or the caller's own id: anyone. Another id: platform admins only; to everyone else another user
 * does not exist (404, no enumeration of ids).
 */
export async function visibleUser(db: Db, auth: UserPrincipal, id: string): Promise<User> {
  const userId = id === "me" ? auth.userId : id;
  if (userId !== auth.userId && auth.platformRole !== "admin") throw notFound("User");
  const user = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw notFound("User");
  return user;
}

export interface NewUser {
  email: string;
  name: string;
  password: string;
  platformRole: PlatformRole;
}

/** Creates an account (the caller is a platform admin); its audit row commits with it, or neither. */
/** `hashLogN`: the deployment's PASSWORD_SCRYPT_LOG_N. */
export async function createUser(db: Db, input: NewUser, audit: AuditContext, hashLogN: number): Promise<User> {
  const now = nowIso();
  const row: User = {
    id: newId("usr"),
    email: input.email,
    name: input.name,
    passwordHash: await hashPassword(input.password, hashLogN),
    platformRole: input.platformRole,
    disabledAt: null,
    externalId: null,
    directoryUserName: null,
    givenName: null,
    familyName: null,
    createdAt: now,
    updatedAt: now,
  };
  const [inserted] = await db.batch([
    db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id }),
    auditStatement(db, audit, userEvent("user.created", row.id), now, sql`exists (select 1 from users where id = ${row.id})`),
  ]);
  if (inserted.length === 0) throw conflict("A user with this email already exists");
  return row;
}

/** Every user, a page past `cursor` (limit + 1 rows), optionally the one with an exact address. */
export function listUsers(db: Db, limit: number, cursor: string | undefined, email: string | undefined) {
  return db
    .select()
    .from(users)
    .where(and(email ? eq(users.email, email) : undefined, afterCursor(users, cursor)))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(limit + 1)
    .all();
}
