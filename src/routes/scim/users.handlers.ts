import type { Context } from "hono";
import { scimOf } from "../../lib/principal";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { parseEqualityFilter } from "../../services/scim/filters";
import { scimWrite } from "../../services/scim/scim-guard";
import { directoryUserFrom, toScimUser } from "../../services/scim/user-resource";
import { patchedUser } from "../../services/scim/user-patch";
import {
  createScimUser,
  deleteScimUser,
  findScimUser,
  listScimUsers,
  replaceScimUser,
  USER_FILTER_ATTRIBUTES,
} from "../../services/scim/users";
import { listResponse, originOf, scimPage } from "./scim-list";
import { SCIM_HEADERS } from "./scim.schemas";
import type * as routes from "./users.routes";

const write = (c: Context<AppEnv>, status: number) => scimWrite(auditOf(c, status), scimOf(c).tokenId);

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const user = await createScimUser(c.var.db, directoryUserFrom(c.req.valid("json")), write(c, 201));
  return c.json(toScimUser(user, originOf(c.req.url)), 201, SCIM_HEADERS);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const query = c.req.valid("query");
  const filter = parseEqualityFilter(query.filter, USER_FILTER_ATTRIBUTES);
  const { startIndex, count } = scimPage(query);
  const { total, rows } = await listScimUsers(c.var.db, filter, startIndex, count);
  const origin = originOf(c.req.url);
  return c.json(
    listResponse(
      rows.map((user) => toScimUser(user, origin)),
      total,
      startIndex,
    ),
    200,
    SCIM_HEADERS,
  );
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const user = await findScimUser(c.var.db, c.req.valid("param").id);
  return c.json(toScimUser(user, originOf(c.req.url)), 200, SCIM_HEADERS);
};

export const replace: AppRouteHandler<typeof routes.replace> = async (c) => {
  const user = await findScimUser(c.var.db, c.req.valid("param").id);
  const next = await replaceScimUser(c.env, c.var.db, user, directoryUserFrom(c.req.valid("json")), write(c, 200));
  return c.json(toScimUser(next, originOf(c.req.url)), 200, SCIM_HEADERS);
};

export const patch: AppRouteHandler<typeof routes.patch> = async (c) => {
  const user = await findScimUser(c.var.db, c.req.valid("param").id);
  const origin = originOf(c.req.url);
  const next = await replaceScimUser(c.env, c.var.db, user, patchedUser(user, c.req.valid("json").Operations, origin), write(c, 200));
  return c.json(toScimUser(next, origin), 200, SCIM_HEADERS);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const user = await findScimUser(c.var.db, c.req.valid("param").id);
  await deleteScimUser(c.env, c.var.db, user, write(c, 204));
  return c.body(null, 204);
};
