import { refreshDeviceOwners } from "../networks/device-lifecycle";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Db } from "../../db/client";
import { insertWhere } from "../../db/insert-where";
import { invites, memberships, users } from "../../db/schema";
import { getConfig } from "../../lib/env";
import { conflict, domainError, fieldError, forbidden, notFound, unauthorized } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { isUniqueViolation } from "../../lib/db-errors";
import { PASSWORD_RULES } from "../../lib/password-rules";
import type { AppEnv, UserPrincipal } from "../../lib/types";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { isMfaActive } from "../auth/mfa";
import { hashPassword, verifyPassword } from "../auth/password";
import { startSession } from "../auth/sessions";
import { signedInAs } from "../auth/signed-in-actor";
import { sha256 } from "../auth/tokens";
import { inviterStillGrants } from "../live-authority";
import { readSettings } from "../settings/settings";
import { countAttempt } from "../throttle/throttle.limiter";
import { type Invite, inviteStatus } from "./invites";

const unusable = () => domainError("The invite is not valid, was already used, was revoked or has expired");

export async function findUsableInvite(db: Db, token: string): Promise<Invite> {
  const invite = await db
    .select()
    .from(invites)
    .where(eq(invites.tokenHash, sha256(token)))
    .get();
  if (!invite || inviteStatus(invite) !== "pending") throw unusable();
  return invite;
}

/**
 * Single use: exactly one acceptance wins the compare-and-set. An invite is a grant of whoever sent it:
 * it is claimable only while the inviter may still grant its role (services/live-authority.ts).
 */
const claimStatement = (db: Db, invite: Invite, userId: string | null, now: string) =>
  db
    .update(invites)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(
      and(
        eq(invites.id, invite.id),
        isNull(invites.acceptedAt),
        isNull(invites.revokedAt),
        gt(invites.expiresAt, now),
        inviterStillGrants(invite.id),
      ),
    )
    .returning({ id: invites.id });

const acceptedEvent = (invite: Invite, userId: string) => ({
  action: "invite.accepted",
  resourceId: userId,
  groupId: invite.groupId,
  networkId: null,
});

export interface AcceptProof {
  caller?: UserPrincipal;
  password?: string;
  name?: string;
}

/**
 * The rule (docs/identity.md): no account for the invited email → a password creates one. An account
 * exists → the caller is signed in as it, or gives its password (only while it has no MFA: a password
 * alone must not stand in for a second factor). Returns the account and the role it holds in the group.
 * The audit row (actor: the account that joined) commits with the join, on the join's own condition.
 */
/** `hashLogN`: the deployment's PASSWORD_SCRYPT_LOG_N, for an account the invite creates. */
export async function acceptInvite(db: Db, invite: Invite, proof: AcceptProof, audit: AuditContext, hashLogN: number) {
  const existing = await db.select().from(users).where(eq(users.email, invite.email)).get();
  if (proof.caller && proof.caller.userId !== existing?.id) throw forbidden("This invite was sent to another email address");
  const now = nowIso();

  if (!existing) {
    // Admin settings' sign-up policy: with "admins_only", only platform admins create accounts.
    if ((await readSettings(db)).settings.signUp.mode === "admins_only") {
      throw forbidden("Sign-up is limited to platform admins: ask one to create your account, then accept again");
    }
    if (!proof.password) throw fieldError("password", "A password is required to create the invited account");
    if (proof.password.length < PASSWORD_RULES.min) throw fieldError("password", `At least ${PASSWORD_RULES.min} characters`);
    const user = {
      id: newId("usr"),
      email: invite.email,
      name: proof.name ?? "",
      passwordHash: await hashPassword(proof.password, hashLogN),
      platformRole: "user" as const,
      disabledAt: null,
      externalId: null,
      directoryUserName: null,
      givenName: null,
      familyName: null,
      createdAt: now,
      updatedAt: now,
    };
    // Claimed before the account exists (acceptedBy is a foreign key): it is filled in with the insert.
    if ((await claimStatement(db, invite, null, now)).length === 0) throw unusable();
    const giveBack = () => db.update(invites).set({ acceptedAt: null, acceptedBy: null }).where(eq(invites.id, invite.id));
    // The inviter's authority is checked again by the batch that joins: it may have ended since the claim.
    const created = sql`exists (select 1 from users where id = ${user.id})`;
    const joinedRow = auditStatement(db, signedInAs(audit, user.id), acceptedEvent(invite, user.id), now, created);
    let joined: { id: string }[];
    try {
      [joined] = await db.batch([
        insertWhere(db, users, user, inviterStillGrants(invite.id)).returning({ id: users.id }),
        insertWhere(
          db,
          memberships,
          { groupId: invite.groupId, userId: user.id, role: invite.role, source: "manual", createdAt: now, updatedAt: now },
          created,
        ),
        db
          .update(invites)
          .set({ acceptedBy: user.id })
          .where(and(eq(invites.id, invite.id), created)),
        joinedRow,
      ]);
    } catch (error) {
      // Someone created this account in between: give the invite back so it can be accepted as that account.
      await giveBack();
      if (isUniqueViolation(error)) throw conflict("An account for this email was created meanwhile; accept again");
      throw error;
    }
    if (joined.length === 0) {
      await giveBack();
      throw unusable();
    }
    return { user, role: invite.role, created: true };
  }

  if (existing.disabledAt) throw forbidden("The invited account is disabled");
  if (!proof.caller) {
    if (!proof.password || !existing.passwordHash)
      throw unauthorized("An account exists for this email: sign in as it, or give its password");
    if (await isMfaActive(db, existing.id))
      throw unauthorized("The invited account uses MFA: sign in first and accept with its bearer token");
    if (!(await verifyPassword(proof.password, existing.passwordHash))) throw unauthorized("Invalid email or password");
  }
  // The claim (with the inviter's authority) and the join commit together, or neither does.
  const claimed = sql`exists (select 1 from invites where id = ${invite.id} and accepted_by = ${existing.id} and accepted_at = ${now})`;
  const [won] = await db.batch([
    claimStatement(db, invite, existing.id, now),
    insertWhere(
      db,
      memberships,
      { groupId: invite.groupId, userId: existing.id, role: invite.role, source: "manual", createdAt: now, updatedAt: now },
      claimed,
    ).onConflictDoNothing(),
    auditStatement(db, signedInAs(audit, existing.id), acceptedEvent(invite, existing.id), now, claimed),
  ]);
  if (won.length === 0) throw unusable();
  const membership = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.groupId, invite.groupId), eq(memberships.userId, existing.id)))
    .get();
  if (!membership) throw notFound("Group");
  return { user: existing, role: membership.role, created: false };
}

/**
 * The acceptance request: the client address is counted before the token is looked up (guessing tokens
 * counts), the invited account after. A created account is signed in (its tokens join the answer).
 */
export async function acceptInviteRequest(c: Context<AppEnv>, proof: AcceptProof & { token: string }, audit: AuditContext) {
  const { db } = c.var;
  const fromAddress = await countAttempt(c, "invite", {});
  const invite = await findUsableInvite(db, proof.token);
  const forAccount = await countAttempt(c, "invite", { account: invite.email, address: false });
  const result = await acceptInvite(db, invite, proof, audit, getConfig(c.env).PASSWORD_SCRYPT_LOG_N);
  // An existing account may hold devices in the group's networks already (a platform admin's): their role is new.
  if (!result.created) await refreshDeviceOwners(c.env, db, result.user.id, invite.groupId);
  await Promise.all([fromAddress.succeeded(), forAccount.succeeded()]);
  const joined = { groupId: invite.groupId, role: result.role, user: result.user, accountCreated: result.created };
  if (!result.created) return joined;
  const { accessToken, refreshToken, tokenType, expiresIn } = await startSession(db, getConfig(c.env), result.user);
  return { ...joined, accessToken, refreshToken, tokenType, expiresIn };
}
