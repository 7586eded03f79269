import type { AppRouteHandler } from "../../lib/types";
import { userOf } from "../../lib/principal";
import { auditOf } from "../../middleware/audit";
import { createGroup, deleteGroup, listGroups, readGroup, renameGroup } from "../../services/identity/groups";
import type * as routes from "./groups.routes";
import { toPage } from "../../lib/pagination";

export const create: AppRouteHandler<typeof routes.create> = async (c) =>
  c.json(await createGroup(c.var.db, userOf(c), c.req.valid("json").name, auditOf(c, 201)), 201);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  return c.json(
    toPage(await listGroups(c.var.db, userOf(c), limit, cursor), limit, (row) => row),
    200,
  );
};

export const get: AppRouteHandler<typeof routes.get> = async (c) =>
  c.json(await readGroup(c.var.db, userOf(c), c.req.valid("param").id), 200);

export const update: AppRouteHandler<typeof routes.update> = async (c) =>
  c.json(await renameGroup(c.var.db, userOf(c), c.req.valid("param").id, c.req.valid("json").name, auditOf(c, 200)), 200);

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  await deleteGroup(c.var.db, userOf(c), c.req.valid("param").id, auditOf(c, 204));
  return c.body(null, 204);
};
