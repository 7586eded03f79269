import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import { issueScimToken, listScimTokens, revokeScimToken } from "../../services/scim/tokens";
import type * as routes from "./scim-tokens.routes";
import { presentScimToken } from "./scim-tokens.schemas";

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  requirePlatformAdmin(userOf(c));
  const { token, secret } = await issueScimToken(c.var.db, c.req.valid("json").name, userOf(c).userId, auditOf(c, 201));
  return c.json({ ...presentScimToken(token), token: secret }, 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  requirePlatformAdmin(userOf(c));
  const query = c.req.valid("query");
  return c.json(toPage(await listScimTokens(c.var.db, query), query.limit, presentScimToken), 200);
};

export const revoke: AppRouteHandler<typeof routes.revoke> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(presentScimToken(await revokeScimToken(c.var.db, c.req.valid("param").id, auditOf(c, 200))), 200);
};
