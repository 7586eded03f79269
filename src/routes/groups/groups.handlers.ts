import { and, asc, eq } from "drizzle-orm";
import { groups, memberships, networks } from "../../db/schema";
import { isForeignKeyViolation } from "../../lib/db-errors";
import { conflict } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { groupAccess } from "../../services/access";
import type * as routes from "./groups.routes";

type GroupRow = typeof groups.$inferSelect;
const present = (group: GroupRow, role: typeof memberships.$inferSelect.role) => ({ ...group, role });

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { name } = c.req.valid("json");
  const now = nowIso();
  const group = { id: newId("grp"), name, createdAt: now, updatedAt: now };
  await c.var.db.batch([
    c.var.db.insert(groups).values(group),
    c.var.db.insert(memberships).values({ groupId: group.id, userId: c.var.auth.userId, role: "owner", createdAt: now, updatedAt: now }),
  ]);
  return c.json(present(group, "owner"), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const { db, auth } = c.var;
  const after = afterCursor(groups, cursor);
  const order = [asc(groups.createdAt), asc(groups.id)];
  if (auth.platformRole === "admin") {
    const rows = await db.select().from(groups).where(after).orderBy(...order).limit(limit + 1).all();
    return c.json(toPage(rows, limit, (row) => present(row, "owner")), 200);
  }
  const rows = await db.select({ group: groups, role: memberships.role })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, auth.userId), after))
    .orderBy(...order).limit(limit + 1).all();
  const flat = rows.map((row) => ({ ...row.group, role: row.role }));
  return c.json(toPage(flat, limit, (row) => row), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { group, role } = await groupAccess(c.var.db, c.var.auth, c.req.valid("param").id, "read");
  return c.json(present(group, role), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { group, role } = await groupAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  const next = { ...group, name: c.req.valid("json").name, updatedAt: nowIso() };
  await c.var.db.update(groups).set(next).where(eq(groups.id, group.id));
  return c.json(present(next, role), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { group } = await groupAccess(c.var.db, c.var.auth, c.req.valid("param").id, "own");
  const owned = await c.var.db.select({ id: networks.id }).from(networks).where(eq(networks.groupId, group.id)).limit(1).get();
  if (owned) throw conflict("The group still owns networks; delete them first");
  try {
    await c.var.db.delete(groups).where(eq(groups.id, group.id));
  } catch (error) {
    // A network created between the check and the delete: the foreign key refuses, and so do we.
    if (isForeignKeyViolation(error)) throw conflict("The group still owns networks; delete them first");
    throw error;
  }
  return c.body(null, 204);
};
