import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { addMember, changeMemberRole, listMembers, removeMember } from "../../services/identity/members";
import type * as routes from "./members.routes";

const strip = <T extends { id: string }>({ id: _cursorKey, ...member }: T) => member;

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  return c.json(toPage(await listMembers(c.var.db, userOf(c), c.req.valid("param").id, limit, cursor), limit, strip), 200);
};

export const add: AppRouteHandler<typeof routes.add> = async (c) =>
  c.json(await addMember(c.env, c.var.db, userOf(c), c.req.valid("param").id, c.req.valid("json"), auditOf(c, 201)), 201);

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id, userId } = c.req.valid("param");
  return c.json(await changeMemberRole(c.env, c.var.db, userOf(c), id, userId, c.req.valid("json").role, auditOf(c, 200)), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { id, userId } = c.req.valid("param");
  await removeMember(c.env, c.var.db, userOf(c), id, userId, auditOf(c, 204));
  return c.body(null, 204);
};
