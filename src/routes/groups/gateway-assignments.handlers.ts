import type { AppRouteHandler } from "../../lib/types";
import { userOf } from "../../lib/principal";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import { authorizeGroup } from "../../services/authorization";
import { createAssignment, deleteAssignment, listAssignments } from "../../services/inventory/gateway-assignments";
import type * as routes from "./gateway-assignments.routes";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { id } = c.req.valid("param");
  const { limit, cursor } = c.req.valid("query");
  await authorizeGroup(c.var.db, userOf(c), id, "read");
  return c.json(await listAssignments(c.var.db, id, limit, cursor), 200);
};

/** The group is looked up first: someone outside it gets 404 (it does not exist for them), a member 403. */
export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { id } = c.req.valid("param");
  await authorizeGroup(c.var.db, userOf(c), id, "read");
  requirePlatformAdmin(userOf(c));
  return c.json(await createAssignment(c.var.db, id, c.req.valid("json"), userOf(c).userId, auditOf(c, 201)), 201);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { id, assignmentId } = c.req.valid("param");
  await authorizeGroup(c.var.db, userOf(c), id, "read");
  requirePlatformAdmin(userOf(c));
  await deleteAssignment(c.var.db, id, assignmentId, auditOf(c, 204));
  return c.body(null, 204);
};
