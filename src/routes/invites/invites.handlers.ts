import { presentUser } from "../../schemas/users";
import { signedInUserOf, userOf } from "../../lib/principal";
import { toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { acceptInviteRequest } from "../../services/identity/invite-acceptance";
import { inviteToGroup, listInvites, revokeInvite } from "../../services/identity/invites";
import type * as routes from "./invites.routes";
import { presentInvite } from "./invites.schemas";

export const create: AppRouteHandler<typeof routes.create> = async (c) =>
  c.json(presentInvite(await inviteToGroup(c, c.req.valid("param").id, c.req.valid("json"), auditOf(c, 201))), 201);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  return c.json(toPage(await listInvites(c.var.db, userOf(c), c.req.valid("param").id, limit, cursor), limit, presentInvite), 200);
};

export const revoke: AppRouteHandler<typeof routes.revoke> = async (c) => {
  const { id, inviteId } = c.req.valid("param");
  await revokeInvite(c.var.db, userOf(c), id, inviteId, auditOf(c, 204));
  return c.body(null, 204);
};

export const accept: AppRouteHandler<typeof routes.accept> = async (c) => {
  const body = c.req.valid("json");
  // The bearer is optional here; when one is sent its router's guard required a live session.
  const caller = signedInUserOf(c);
  const accepted = await acceptInviteRequest(c, { ...body, caller }, auditOf(c, 200));
  return c.json({ ...accepted, user: presentUser(accepted.user) }, 200);
};
