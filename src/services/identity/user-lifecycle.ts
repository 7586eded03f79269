import { and, eq, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { memberships, users } from "../../db/schema";
import type { Env } from "../../lib/env";
import { conflict, domainError } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import type { PlatformRole, UserPrincipal } from "../../lib/types";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { forgetLiveSessions } from "../auth/session-cache";
import { revokeAllSessions } from "../auth/sign-in";
import { assertNoHopDevices, ONLY_AS_PLATFORM_ADMIN, removeDevicesOf } from "../networks/device-lifecycle";
import { type User, userEvent } from "./users";

export interface UserChanges {
  name?: string;
  platformRole?: PlatformRole;
  disabled?: boolean;
}

/**
 * Renames, changes the platform role of, disables or enables a user (the caller is a platform admin
 * and `user` was read for it). Disabling and demotion end access first, in one commit with the audit row,
 * and only then take the devices out (services/live-authority.ts).
 */
export async function updateUser(env: Env, db: Db, auth: UserPrincipal, user: User, body: UserChanges, audit: AuditContext): Promise<User> {
  const self = user.id === auth.userId;
  if (self && ((body.platformRole && body.platformRole !== user.platformRole) || body.disabled === true)) {
    throw domainError("Admins cannot demote or disable themselves; ask another admin");
  }
  const now = nowIso();
  const disabledAt = body.disabled === undefined ? user.disabledAt : body.disabled ? (user.disabledAt ?? now) : null;
  const next = { ...user, name: body.name ?? user.name, platformRole: body.platformRole ?? user.platformRole, disabledAt, updatedAt: now };
  const write = db
    .update(users)
    .set({ name: next.name, platformRole: next.platformRole, disabledAt, updatedAt: now })
    .where(eq(users.id, user.id));
  const audited = auditStatement(db, audit, userEvent("user.updated", user.id), now);
  if (disabledAt && !user.disabledAt) await endAccess(env, db, user.id, [write, audited], "user_disabled");
  else if (user.platformRole === "admin" && next.platformRole === "user") {
    // Demoted: devices the user held only as a platform admin (no device-holding membership there) go,
    // listed after the demotion committed, exactly as for a removal from their groups.
    await assertNoHopDevices(db, user.id, ONLY_AS_PLATFORM_ADMIN);
    await db.batch([write, audited]);
    forgetLiveSessions();
    await removeDevicesOf(env, db, user.id, ONLY_AS_PLATFORM_ADMIN);
  } else await db.batch([write, audited]);
  // The role claim or the disabled flag may have changed: reads re-check their sessions in D1.
  forgetLiveSessions();
  return next;
}

/**
 * Ends a user's access (disabled or deleted by an admin, deprovisioned by the directory): `statements` (the
 * disabled flag, its audit row, a SCIM token's guard) commit with the end of every session, so no window leaves
 * a disabled user a live refresh token; then the devices leave their networks (re-enrol after re-enabling),
 * listed after that commit: enrolments committing later are refused by their own write.
 */
export async function endAccess(env: Env, db: Db, userId: string, statements: BatchItem<"sqlite">[], reason: string): Promise<void> {
  await assertNoHopDevices(db, userId);
  await db.batch([revokeAllSessions(db, userId, reason), ...statements]);
  forgetLiveSessions();
  await removeDevicesOf(env, db, userId);
}

/**
 * Deletes a user (for a platform admin, never themself; for the directory, `actorUserId` null). Access ends
 * first (disabled, sessions revoked) in one commit, so no enrolment can commit after it; then the devices leave through their
 * networks' writers (a deleted user's laptop must leave every peer's config), listed after that commit;
 * then the account goes, with its audit row in that last batch: the row records the deletion the answer
 * reports. Deleting first would cascade the device rows away and leave their nodes behind. If a later
 * step fails the account stays disabled.
 */
export async function deleteUser(
  env: Env,
  db: Db,
  actorUserId: string | null,
  user: User,
  audit: AuditContext,
  guards: BatchItem<"sqlite">[] = [],
): Promise<void> {
  if (user.id === actorUserId) throw domainError("Admins cannot delete their own account");
  const soleOwner = await db
    .select({ groupId: memberships.groupId })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, user.id),
        eq(memberships.role, "owner"),
        sql`not exists (select 1 from ${memberships} o where o.group_id = ${memberships.groupId} and o.role = 'owner' and o.user_id <> ${user.id})`,
      ),
    )
    .limit(1)
    .get();
  if (soleOwner) throw conflict(`The user is the only owner of group ${soleOwner.groupId}; transfer ownership first`);
  const disable = db
    .update(users)
    .set({ disabledAt: user.disabledAt ?? nowIso(), updatedAt: nowIso() })
    .where(eq(users.id, user.id));
  await endAccess(env, db, user.id, [...guards, disable], "user_deleted");
  // The audit row first, on the delete's own condition: written exactly when the account goes.
  const notActor = actorUserId ? ne(users.id, actorUserId) : undefined;
  const goes = sql`exists (select 1 from users where id = ${user.id} and id <> ${actorUserId ?? ""})`;
  await db.batch([
    auditStatement(db, audit, userEvent("user.deleted", user.id), nowIso(), goes),
    ...guards,
    db.delete(users).where(and(eq(users.id, user.id), notActor)),
  ]);
  forgetLiveSessions();
}
