import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Db } from "../../db/client";
import { invites, memberships, users, type GroupRole } from "../../db/schema";
import type { Config } from "../../lib/env";
import { getConfig } from "../../lib/env";
import { ApiError, conflict, forbidden, notFound } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { afterCursor } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppEnv, UserPrincipal } from "../../lib/types";
import { authorizeGroup } from "../authorization";
import { type AuditContext, auditStatement } from "../audit/audit-trail";
import { randomToken, sha256 } from "../auth/tokens";
import type { Mailer } from "../mail/mail.types";
import { createMailer } from "../mail/mailer";
import { inviteMessage } from "../mail/messages";
import { countAttempt } from "../throttle/throttle.limiter";

export type Invite = typeof invites.$inferSelect;

export function inviteStatus(invite: Invite, now = nowIso()) {
  if (invite.acceptedAt) return "accepted" as const;
  if (invite.revokedAt) return "revoked" as const;
  return invite.expiresAt <= now ? ("expired" as const) : ("pending" as const);
}

const inviteEvent = (action: string, invite: { id: string; groupId: string }) => ({
  action,
  resourceId: invite.id,
  groupId: invite.groupId,
  networkId: null,
});

/**
 * Invites an address into a group with a role (owner, admin; only owners invite owners). Every invite is
 * a mail to an address the caller chose: counted per inviting account and per client address before it
 * is written or sent (a parallel burst cannot slip past), like reset requests.
 */
export async function inviteToGroup(c: Context<AppEnv>, groupId: string, body: { email: string; role: GroupRole }, audit: AuditContext) {
  const { db } = c.var;
  const auth = userOf(c);
  const { group, role: actorRole } = await authorizeGroup(db, auth, groupId, "manage");
  if (body.role === "owner" && actorRole !== "owner") throw forbidden("Only owners may invite owners");
  await countAttempt(c, "invite-send", { account: auth.userId });
  const config = getConfig(c.env);
  return createInvite(
    db,
    config,
    createMailer(config, db),
    {
      groupId: group.id,
      groupName: group.name,
      email: body.email,
      role: body.role,
      invitedBy: auth.userId,
    },
    audit,
  );
}

/**
 * Mails a new invite; once the mail is out, an earlier pending invite of the same address to the same
 * group is revoked (not before: a relay failure must not kill the link the invitee already has). The
 * audit row commits with that last step: the invite is stored before its mail goes out (a relay failure
 * revokes it and answers 502), so the row is written only once the invite stands.
 */
export async function createInvite(
  db: Db,
  config: Config,
  mailer: Mailer,
  input: { groupId: string; groupName: string; email: string; role: GroupRole; invitedBy: string },
  audit: AuditContext,
): Promise<Invite> {
  const member = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.groupId, input.groupId), eq(users.email, input.email)))
    .get();
  if (member) throw conflict("This address already belongs to a member of the group");
  const token = `inv_${randomToken()}`;
  const now = nowIso();
  const invite: Invite = {
    id: newId("inv"),
    groupId: input.groupId,
    email: input.email,
    role: input.role,
    tokenHash: sha256(token),
    invitedBy: input.invitedBy,
    createdAt: now,
    expiresAt: secondsFromNow(config.INVITE_TTL_SECONDS),
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
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
  await db.batch([
    db
      .update(invites)
      .set({ revokedAt: nowIso() })
      .where(
        and(
          eq(invites.groupId, input.groupId),
          eq(invites.email, input.email),
          isNull(invites.acceptedAt),
          isNull(invites.revokedAt),
          or(lt(invites.createdAt, invite.createdAt), and(eq(invites.createdAt, invite.createdAt), lt(invites.id, invite.id))),
        ),
      ),
    auditStatement(db, audit, inviteEvent("invite.created", invite)),
  ]);
  return invite;
}

/** Invites of a group, every status (owner, admin), a page past `cursor` (limit + 1 rows). */
export async function listInvites(db: Db, auth: UserPrincipal, groupId: string, limit: number, cursor: string | undefined) {
  const { group } = await authorizeGroup(db, auth, groupId, "manage");
  return db
    .select()
    .from(invites)
    .where(and(eq(invites.groupId, group.id), afterCursor(invites, cursor)))
    .orderBy(asc(invites.createdAt), asc(invites.id))
    .limit(limit + 1)
    .all();
}

/** Revokes a pending invite (owner, admin; only owners revoke owner invites). */
export async function revokeInvite(db: Db, auth: UserPrincipal, groupId: string, inviteId: string, audit: AuditContext): Promise<void> {
  const { group, role: actorRole } = await authorizeGroup(db, auth, groupId, "manage");
  const invite = await db
    .select()
    .from(invites)
    .where(and(eq(invites.id, inviteId), eq(invites.groupId, group.id)))
    .get();
  if (!invite) throw notFound("Invite");
  if (invite.role === "owner" && actorRole !== "owner") throw forbidden("Only owners may revoke owner invites");
  // The audit row first, on the revocation's own condition (same transaction): a lost race leaves no row.
  const pending = sql`exists (select 1 from invites where id = ${invite.id} and accepted_at is null and revoked_at is null)`;
  const [, revoked] = await db.batch([
    auditStatement(db, audit, inviteEvent("invite.revoked", invite), nowIso(), pending),
    db
      .update(invites)
      .set({ revokedAt: nowIso() })
      .where(and(eq(invites.id, invite.id), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
      .returning({ id: invites.id }),
  ]);
  if (revoked.length === 0) throw conflict("The invite was already accepted or revoked");
}
