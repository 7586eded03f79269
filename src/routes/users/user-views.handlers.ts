import { and, asc, eq } from "drizzle-orm";
import { groups, memberships, networks } from "../../db/schema";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { visibleUser } from "./users.handlers";
import type * as routes from "./user-views.routes";

export const groupsOfUser: AppRouteHandler<typeof routes.groupsOfUser> = async (c) => {
  const user = await visibleUser(c.var.db, c.var.auth, c.req.valid("param").id);
  const { limit, cursor } = c.req.valid("query");
  const rows = await c.var.db.select({
    id: memberships.groupId, groupId: memberships.groupId, name: groups.name, role: memberships.role, createdAt: memberships.createdAt,
  }).from(memberships).innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(and(eq(memberships.userId, user.id), afterCursor({ createdAt: memberships.createdAt, id: memberships.groupId }, cursor)))
    .orderBy(asc(memberships.createdAt), asc(memberships.groupId)).limit(limit + 1).all();
  return c.json(toPage(rows, limit, ({ id: _cursor, ...row }) => row), 200);
};

const networkColumns = {
  id: networks.id, createdAt: networks.createdAt, networkId: networks.id, name: networks.name, cidr: networks.cidr,
  groupId: networks.groupId, groupName: groups.name,
};

/** Mirrors services/access.ts: platform admins act as owners everywhere; others through their memberships. */
export const accessOfUser: AppRouteHandler<typeof routes.accessOfUser> = async (c) => {
  const user = await visibleUser(c.var.db, c.var.auth, c.req.valid("param").id);
  const { limit, cursor } = c.req.valid("query");
  const order = [asc(networks.createdAt), asc(networks.id)];
  const after = afterCursor(networks, cursor);
  const strip = <T extends { id: string; createdAt: string }>({ id: _id, createdAt: _at, ...rest }: T) => rest;
  if (user.platformRole === "admin") {
    const rows = await c.var.db.select(networkColumns).from(networks).innerJoin(groups, eq(groups.id, networks.groupId))
      .where(after).orderBy(...order).limit(limit + 1).all();
    return c.json(toPage(rows, limit, (row) => ({ ...strip(row), role: "owner" as const, via: "platform_admin" as const })), 200);
  }
  const rows = await c.var.db.select({ ...networkColumns, role: memberships.role }).from(memberships)
    .innerJoin(networks, eq(networks.groupId, memberships.groupId))
    .innerJoin(groups, eq(groups.id, networks.groupId))
    .where(and(eq(memberships.userId, user.id), after)).orderBy(...order).limit(limit + 1).all();
  return c.json(toPage(rows, limit, (row) => ({ ...strip(row), via: "membership" as const })), 200);
};
