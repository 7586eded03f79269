import { and, asc, eq, isNull } from "drizzle-orm";
import { invites } from "../../db/schema";
import { getConfig } from "../../lib/env";
import { conflict, forbidden, notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { requireUser } from "../../middleware/auth";
import { groupAccess } from "../../services/access";
import { acceptInvite, createInvite, findUsableInvite } from "../../services/auth/invites";
import { startSession } from "../../services/auth/sessions";
import { createMailer } from "../../services/mail/mailer";
import { countAttempt } from "../../services/throttle/throttle.limiter";
import { presentUser } from "../../lib/schemas/users";
import type * as routes from "./invites.routes";
import { presentInvite } from "./invites.schemas";

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { group, role: actorRole } = await groupAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  const { email, role } = c.req.valid("json");
  if (role === "owner" && actorRole !== "owner") throw forbidden("Only owners may invite owners");
  // Every invite is a mail to an address the caller chose: counted per inviting account and per client
  // address before it is written or sent (a parallel burst cannot slip past), like reset requests.
  await countAttempt(c, "invite-send", { account: c.var.auth.userId });
  const config = getConfig(c.env);
  const invite = await createInvite(c.var.db, config, createMailer(config, c.var.db), {
    groupId: group.id, groupName: group.name, email, role, invitedBy: c.var.auth.userId,
  });
  return c.json(presentInvite(invite), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { group } = await groupAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  const { limit, cursor } = c.req.valid("query");
  const rows = await c.var.db.select().from(invites)
    .where(and(eq(invites.groupId, group.id), afterCursor(invites, cursor)))
    .orderBy(asc(invites.createdAt), asc(invites.id)).limit(limit + 1).all();
  return c.json(toPage(rows, limit, presentInvite), 200);
};

export const revoke: AppRouteHandler<typeof routes.revoke> = async (c) => {
  const { id, inviteId } = c.req.valid("param");
  const { group, role: actorRole } = await groupAccess(c.var.db, c.var.auth, id, "manage");
  const invite = await c.var.db.select().from(invites).where(and(eq(invites.id, inviteId), eq(invites.groupId, group.id))).get();
  if (!invite) throw notFound("Invite");
  if (invite.role === "owner" && actorRole !== "owner") throw forbidden("Only owners may revoke owner invites");
  const revoked = await c.var.db.update(invites).set({ revokedAt: nowIso() })
    .where(and(eq(invites.id, invite.id), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
    .returning({ id: invites.id });
  if (revoked.length === 0) throw conflict("The invite was already accepted or revoked");
  return c.body(null, 204);
};

export const accept: AppRouteHandler<typeof routes.accept> = async (c) => {
  const body = c.req.valid("json");
  // The bearer is optional here; when one is sent it must be a live session (same checks as everywhere).
  if (c.req.header("authorization")) await requireUser(c, async () => {});
  const caller = c.req.header("authorization") ? c.var.auth : undefined;
  // The address is counted before the token is looked up (guessing tokens counts), the invited account after.
  const fromAddress = await countAttempt(c, "invite", {});
  const invite = await findUsableInvite(c.var.db, body.token);
  const forAccount = await countAttempt(c, "invite", { account: invite.email, address: false });
  const result = await acceptInvite(c.var.db, invite, { caller, password: body.password, name: body.name });
  await Promise.all([fromAddress.succeeded(), forAccount.succeeded()]);
  const answer = { groupId: invite.groupId, role: result.role, user: presentUser(result.user), accountCreated: result.created };
  if (!result.created) return c.json(answer, 200);
  const { accessToken, refreshToken, tokenType, expiresIn } = await startSession(c.var.db, getConfig(c.env), result.user);
  return c.json({ ...answer, accessToken, refreshToken, tokenType, expiresIn }, 200);
};
