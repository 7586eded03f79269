import { getConfig } from "../../lib/env";
import { presentUser } from "../../schemas/users";
import { userOf } from "../../lib/principal";
import { toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import { deleteUser, updateUser } from "../../services/identity/user-lifecycle";
import { createUser, listUsers, visibleUser } from "../../services/identity/users";
import type * as routes from "./users.routes";

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(presentUser(await createUser(c.var.db, c.req.valid("json"), auditOf(c, 201), getConfig(c.env).PASSWORD_SCRYPT_LOG_N)), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  requirePlatformAdmin(userOf(c));
  const { limit, cursor, email } = c.req.valid("query");
  return c.json(toPage(await listUsers(c.var.db, limit, cursor, email), limit, presentUser), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) =>
  c.json(presentUser(await visibleUser(c.var.db, userOf(c), c.req.valid("param").id)), 200);

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const user = await visibleUser(c.var.db, userOf(c), c.req.valid("param").id);
  requirePlatformAdmin(userOf(c));
  return c.json(presentUser(await updateUser(c.env, c.var.db, userOf(c), user, c.req.valid("json"), auditOf(c, 200))), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const user = await visibleUser(c.var.db, userOf(c), c.req.valid("param").id);
  requirePlatformAdmin(userOf(c));
  await deleteUser(c.env, c.var.db, userOf(c).userId, user, auditOf(c, 204));
  return c.body(null, 204);
};
