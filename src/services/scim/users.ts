// SCIM Users (RFC 7644 §3.3-3.6): the directory creates, finds, replaces and deletes people. Every write
// commits with its audit row (actor `scim:<token name>`) behind the token's guard; a user the directory
// deactivates or deletes loses their sessions and devices at once (identity/user-lifecycle.ts endAccess).
import { and, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import type { Env } from "../../lib/env";
import { isUniqueViolation } from "../../lib/db-errors";
import { conflict, notFound, scimRefusal, uniquenessConflict } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { auditStatement } from "../audit/audit-trail";
import { forgetLiveSessions } from "../auth/session-cache";
import { deleteUser, endAccess } from "../identity/user-lifecycle";
import { type User, userEvent } from "../identity/users";
import type { EqualityFilter } from "./filters";
import { listPage } from "./listing";
import { refusedIfRevoked, type DirectoryWrite, directoryGuard } from "./scim-guard";
import type { DirectoryUser } from "./user-resource";

/** The attributes a Users filter may name (lower-cased, as filters.ts compares them). */
export const USER_FILTER_ATTRIBUTES = ["username", "externalid", "id", "emails.value"] as const;

const FILTER_COLUMNS: Record<(typeof USER_FILTER_ATTRIBUTES)[number], (value: string) => SQL> = {
  // An email-shaped userName is the sign-in, compared without case; any other (a UPN) is kept and compared as sent.
  username: (value) => or(eq(users.email, value.trim().toLowerCase()), eq(users.directoryUserName, value.trim()))!,
  "emails.value": (value) => eq(users.email, value.trim().toLowerCase()),
  externalid: (value) => eq(users.externalId, value),
  id: (value) => eq(users.id, value),
};

export async function findScimUser(db: Db, id: string): Promise<User> {
  const user = await db.select().from(users).where(eq(users.id, id)).get();
  if (!user) throw notFound("User");
  return user;
}

/** One page (SCIM's 1-based startIndex) and the total the filter matches. */
export const listScimUsers = (db: Db, filter: EqualityFilter, startIndex: number, limit: number) =>
  listPage(db, users, filter, FILTER_COLUMNS, startIndex, limit);

/** A person from the directory: no password (they sign in through the IdP), platform role user. 409 when the email is taken. */
export async function createScimUser(db: Db, input: DirectoryUser, write: DirectoryWrite): Promise<User> {
  const now = nowIso();
  const row: User = {
    id: newId("usr"),
    email: input.email,
    name: input.name,
    passwordHash: null,
    platformRole: "user",
    disabledAt: input.active ? null : now,
    externalId: input.externalId,
    directoryUserName: input.userName,
    givenName: input.givenName,
    familyName: input.familyName,
    createdAt: now,
    updatedAt: now,
  };
  const [, inserted] = await refusedIfRevoked(
    db.batch([
      directoryGuard(db, write),
      db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id }),
      auditStatement(db, write.audit, userEvent("user.created", row.id), now, sql`exists (select 1 from users where id = ${row.id})`),
    ]),
  );
  if (inserted.length === 0) throw uniquenessConflict("A user with this userName (or email) already exists");
  return row;
}

/**
 * PUT, and a PATCH once applied: the directory's attributes replace ours. Turning `active` off ends the user's
 * access in the same commit as the change (sessions, then devices); turning it on lets them sign in again, and
 * their devices come back as they enrol again (DESIGN.md: reactivation restores memberships, not devices).
 */
export async function replaceScimUser(env: Env, db: Db, user: User, input: DirectoryUser, write: DirectoryWrite): Promise<User> {
  if (user.platformRole === "admin") await assertAdminStaysReachable(db, user, input);
  if (input.email !== user.email) {
    const taken = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, input.email), ne(users.id, user.id)))
      .get();
    if (taken) throw uniquenessConflict("Another user already has this userName (email)");
  }
  const now = nowIso();
  const disabledAt = input.active ? null : (user.disabledAt ?? now);
  const next: User = { ...user, ...pick(input), disabledAt, updatedAt: now };
  const change = db
    .update(users)
    .set({ ...pick(input), disabledAt, updatedAt: now })
    .where(eq(users.id, user.id));
  const guard = directoryGuard(db, write);
  const audited = auditStatement(db, write.audit, userEvent("user.updated", user.id), now);
  const commit = async () => {
    if (disabledAt && !user.disabledAt) await endAccess(env, db, user.id, [guard, change, audited], "user_deprovisioned");
    else await db.batch([guard, change, audited]);
  };
  await refusedIfRevoked(commit()).catch((error) => {
    // The email was taken between the check and the commit.
    if (isUniqueViolation(error)) throw uniquenessConflict("Another user already has this userName (email)");
    throw error;
  });
  // The disabled flag may have changed: reads re-check their sessions in D1.
  forgetLiveSessions();
  return next;
}

/** DELETE: access ends first (sessions, devices), then the account goes, as an admin's deletion does. */
export async function deleteScimUser(env: Env, db: Db, user: User, write: DirectoryWrite): Promise<void> {
  if (user.platformRole === "admin")
    throw scimRefusal(
      "mutability",
      "A platform admin is deleted by another platform admin, not the directory; deactivate (active: false) instead",
    );
  await refusedIfRevoked(deleteUser(env, db, null, user, write.audit, [directoryGuard(db, write)]));
}

/**
 * A SCIM token is the directory's word on people, not a platform admin's: it may not move an admin's sign-in to
 * another address (a password reset there would hand over the platform), and not disable the last admin left.
 */
async function assertAdminStaysReachable(db: Db, user: User, input: DirectoryUser) {
  if (input.email !== user.email)
    throw scimRefusal("mutability", "A platform admin's sign-in email is changed by a platform admin, not the directory");
  if (input.active || user.disabledAt) return;
  const other = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.platformRole, "admin"), isNull(users.disabledAt), ne(users.id, user.id)))
    .get();
  if (!other) throw conflict("This is the last active platform admin: the directory cannot deactivate them");
}

const pick = (input: DirectoryUser) => ({
  email: input.email,
  name: input.name,
  givenName: input.givenName,
  familyName: input.familyName,
  externalId: input.externalId,
  directoryUserName: input.userName,
});
