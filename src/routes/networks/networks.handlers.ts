import { and, asc, eq } from "drizzle-orm";
import { memberships, networks } from "../../db/schema";
import { groupWriter, networkWriter } from "../../services/networks/writer";
import { afterCursor, toPage } from "../../lib/pagination";
import type { Context } from "hono";
import type { NetworkChanges } from "../../services/networks/operations/networks";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { groupAccess, networkAccess } from "../../services/access";
import type * as routes from "./networks.routes";
import { defaultDnsDomain } from "./networks.schemas";

type NetworkRow = typeof networks.$inferSelect;
const present = (row: NetworkRow) => row;

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const body = c.req.valid("json");
  const { group } = await groupAccess(c.var.db, c.var.auth, body.groupId, "manage");
  const network = await groupWriter(c.env, group.id).createNetwork({
    groupId: group.id, name: body.name, cidr: body.cidr, dnsDomain: body.dnsDomain ?? defaultDnsDomain(body.name),
  });
  return c.json(present(network), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor, groupId } = c.req.valid("query");
  const { db, auth } = c.var;
  const filter = and(groupId ? eq(networks.groupId, groupId) : undefined, afterCursor(networks, cursor));
  const order = [asc(networks.createdAt), asc(networks.id)];
  const rows = auth.platformRole === "admin"
    ? await db.select().from(networks).where(filter).orderBy(...order).limit(limit + 1).all()
    : (await db.select({ network: networks }).from(networks)
      .innerJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
      .where(filter).orderBy(...order).limit(limit + 1).all()).map((row) => row.network);
  return c.json(toPage(rows, limit, present), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { network } = await networkAccess(c.var.db, c.var.auth, c.req.valid("param").id, "read");
  return c.json(present(network), 200);
};

/** PATCH and PUT differ only in which fields their bodies require; the change itself is the same. */
async function update(c: Context<AppEnv>, id: string, changes: NetworkChanges) {
  const { network } = await networkAccess(c.var.db, c.var.auth, id, "manage");
  return present(await networkWriter(c.env, network.id).updateNetwork(network.groupId, changes));
}

export const patch: AppRouteHandler<typeof routes.patch> = async (c) =>
  c.json(await update(c, c.req.valid("param").id, c.req.valid("json")), 200);

export const put: AppRouteHandler<typeof routes.put> = async (c) =>
  c.json(await update(c, c.req.valid("param").id, c.req.valid("json")), 200);

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { network } = await networkAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  await networkWriter(c.env, network.id).deleteNetwork();
  return c.body(null, 204);
};
