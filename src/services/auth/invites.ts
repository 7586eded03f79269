import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { insertWhere } from "../../db/insert-where";
import { invites, memberships, users, type GroupRole } from "../../db/schema";
import type { Config } from "../../lib/env";
import { ApiError, conflict, domainError, fieldError, forbidden, notFound, unauthorized } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { isUniqueViolation } from "../../lib/db-errors";
import type { UserAuth } from "../../lib/types";
import type { Mailer } from "../mail/mail.types";
import { inviteMessage } from "../mail/messages";
import { inviterStillGrants } from "../live-authority";
import { readSettings } from "../settings/settings";
import { isMfaActive } from "./mfa";
import { hashPassword, PASSWORD_RULES, verifyPassword } from "./password";
import { randomToken, sha256 } from "./tokens";

type Invite = typeof invites.$inferSelect;

export function inviteStatus(invite: Invite, now = nowIso()) {
  if (invite.acceptedAt) return "accepted" as const;
  if (invite.revokedAt) return "revoked" as const;
  return invite.expiresAt <= now ? ("expired" as const) : ("pending" as const);
}

/**
 * Mails a new invite; once the mail is out, an earlier pending invite of the same address to the same
 * group is revoked (not before: a relay failure must not kill the link the invitee already has).
 */
export async function createInvite(
  db: Db, config: Config, mailer: Mailer,
  input: { groupId: string; groupName: string; email: string; role: GroupRole; invitedBy: string },
): Promise<Invite> {
  const member = await db.select({ userId: memberships.userId }).from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.groupId, input.groupId), eq(users.email, input.email))).get();
  if (member) throw conflict("This address already belongs to a member of the group");
  const token = `inv_${randomToken()}`;
  const now = nowIso();
  const invite: Invite = {
    id: newId("inv"), groupId: input.groupId, email: input.email, role: input.role, tokenHash: sha256(token),
    invitedBy: input.invitedBy, createdAt: now, expiresAt: secondsFromNow(config.INVITE_TTL_SECONDS),
    acceptedAt: null, acceptedBy: null, revokedAt: null,
  };
  await db.insert(invites).values(invite);
  try {
    await mailer.send(inviteMessage(config, input.email, input.groupName, input.role, token));
  } catch (error) {
    // Nobody can ever accept an invite whose token was not delivered: take it back and say so.
    await db.update(invites).set({ revokedAt: nowIso() }).where(eq(invites.id, invite.id));
    throw new ApiError("bad_gateway", "The invite mail could not be sent; try again later", { cause: error });
  }
  // Only older invites: two re-invites racing must not revoke each other.
  await db.update(invites).set({ revokedAt: nowIso() }).where(and(
    eq(invites.groupId, input.groupId), eq(invites.email, input.email), isNull(invites.acceptedAt), isNull(invites.revokedAt),
    or(lt(invites.createdAt, invite.createdAt), and(eq(invites.createdAt, invite.createdAt), lt(invites.id, invite.id))),
  ));
  return invite;
}

const unusable = () => domainError("The invite is not valid, was already used, was revoked or has expired");

export async function findUsableInvite(db: Db, token: string): Promise<Invite> {
  const invite = await db.select().from(invites).where(eq(invites.tokenHash, sha256(token))).get();
  if (!invite || inviteStatus(invite) !== "pending") throw unusable();
  return invite;
}

/**
 * Single use: exactly one acceptance wins the compare-and-set. An invite is a grant of whoever sent it:
 * it is claimable only while the inviter may still grant its role (services/live-authority.ts).
 */
const claimStatement = (db: Db, invite: Invite, userId: string | null, now: string) =>
  db.update(invites).set({ acceptedAt: now, acceptedBy: userId })
    .where(and(eq(invites.id, invite.id), isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now),
      inviterStillGrants(invite.id)))
    .returning({ id: invites.id });

export interface AcceptProof {
  caller?: UserAuth;
  password?: string;
  name?: string;
}

/**
 * The rule (docs/identity.md): no account for the invited email → a password creates one. An account
 * exists → the caller is signed in as it, or gives its password (only while it has no MFA: a password
 * alone must not stand in for a second factor). Returns the account and the role it holds in the group.
 */
export async function acceptInvite(db: Db, invite: Invite, proof: AcceptProof) {
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
      id: newId("usr"), email: invite.email, name: proof.name ?? "", passwordHash: await hashPassword(proof.password),
      platformRole: "user" as const, disabledAt: null, createdAt: now, updatedAt: now,
    };
    // Claimed before the account exists (acceptedBy is a foreign key): it is filled in with the insert.
    if ((await claimStatement(db, invite, null, now)).length === 0) throw unusable();
    const giveBack = () => db.update(invites).set({ acceptedAt: null, acceptedBy: null }).where(eq(invites.id, invite.id));
    // The inviter's authority is checked again by the batch that joins: it may have ended since the claim.
    const created = sql`exists (select 1 from users where id = ${user.id})`;
    let joined;
    try {
      [joined] = await db.batch([
        insertWhere(db, users, user, inviterStillGrants(invite.id)).returning({ id: users.id }),
        insertWhere(db, memberships, { groupId: invite.groupId, userId: user.id, role: invite.role, createdAt: now, updatedAt: now }, created),
        db.update(invites).set({ acceptedBy: user.id }).where(and(eq(invites.id, invite.id), created)),
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
    if (!proof.password || !existing.passwordHash) throw unauthorized("An account exists for this email: sign in as it, or give its password");
    if (await isMfaActive(db, existing.id)) throw unauthorized("The invited account uses MFA: sign in first and accept with its bearer token");
    if (!(await verifyPassword(proof.password, existing.passwordHash))) throw unauthorized("Invalid email or password");
  }
  // The claim (with the inviter's authority) and the join commit together, or neither does.
  const claimed = sql`exists (select 1 from invites where id = ${invite.id} and accepted_by = ${existing.id} and accepted_at = ${now})`;
  const [won] = await db.batch([
    claimStatement(db, invite, existing.id, now),
    insertWhere(db, memberships, { groupId: invite.groupId, userId: existing.id, role: invite.role, createdAt: now, updatedAt: now }, claimed)
      .onConflictDoNothing(),
  ]);
  if (won.length === 0) throw unusable();
  const membership = await db.select({ role: memberships.role }).from(memberships)
    .where(and(eq(memberships.groupId, invite.groupId), eq(memberships.userId, existing.id))).get();
  if (!membership) throw notFound("Group");
  return { user: existing, role: membership.role, created: false };
}
