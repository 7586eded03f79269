import { and, asc, eq } from "drizzle-orm";
import { memberships, networks, nodes } from "../../db/schema";
import { networkWriter } from "../../services/networks/writer";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { networkAccess, nodeAccess } from "../../services/access";
import { loadNodeConfig } from "../../services/networks/views/node-configs";
import type * as routes from "./nodes.routes";
import { presentNode } from "./nodes.schemas";

/** `roles: ["gateway"]` in the API is `isGateway` in storage. */
const roleFields = (roles: string[] | undefined) => (roles === undefined ? {} : { isGateway: roles.includes("gateway") });

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { networkId, roles, ...body } = c.req.valid("json");
  const { network } = await networkAccess(c.var.db, c.var.auth, networkId, "manage");
  const node = await networkWriter(c.env, network.id).createNode({ ...body, ...roleFields(roles) });
  return c.json(presentNode(node), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor, networkId } = c.req.valid("query");
  const { db, auth } = c.var;
  const filter = and(networkId ? eq(nodes.networkId, networkId) : undefined, afterCursor(nodes, cursor));
  const order = [asc(nodes.createdAt), asc(nodes.id)];
  const rows = auth.platformRole === "admin"
    ? await db.select().from(nodes).where(filter).orderBy(...order).limit(limit + 1).all()
    : (await db.select({ node: nodes }).from(nodes)
      .innerJoin(networks, eq(networks.id, nodes.networkId))
      .innerJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
      .where(filter).orderBy(...order).limit(limit + 1).all()).map((row) => row.node);
  return c.json(toPage(rows, limit, presentNode), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { node } = await nodeAccess(c.var.db, c.var.auth, c.req.valid("param").id, "read");
  return c.json(presentNode(node), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { node } = await nodeAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  const { roles, ...changes } = c.req.valid("json");
  const updated = await networkWriter(c.env, node.networkId).updateNode(node.id, { ...changes, ...roleFields(roles) });
  return c.json(presentNode(updated), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { node } = await nodeAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  await networkWriter(c.env, node.networkId).deleteNode(node.id);
  return c.body(null, 204);
};

const wantsText = (accept: string | undefined) => !!accept && accept.includes("text/plain") && !accept.includes("application/json");

/** Two round trips whatever the network's size: the access check, then one batch of three reads. */
export const config: AppRouteHandler<typeof routes.config> = async (c) => {
  const { node } = await nodeAccess(c.var.db, c.var.auth, c.req.valid("param").id, "read");
  const rendered = await loadNodeConfig(c.var.db, node.networkId, node.id);
  if (wantsText(c.req.header("accept"))) return c.text(rendered.wgQuick, 200);
  return c.json(rendered, 200);
};
