import { toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { networkAccess, nodeAccess } from "../../services/access";
import { loadNodeConfig } from "../../services/networks/views/node-configs";
import { listNodes } from "../../services/networks/views/pages";
import { networkWriter } from "../../services/networks/writer";
import type * as routes from "./nodes.routes";
import { presentNode } from "../../schemas/nodes";

/** `roles: ["gateway"]` in the API is `isGateway` in storage. */
const roleFields = (roles: string[] | undefined) => (roles === undefined ? {} : { isGateway: roles.includes("gateway") });

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { networkId, roles, ...body } = c.req.valid("json");
  const { network } = await networkAccess(c.var.db, c.var.auth, networkId, "manage");
  const node = await networkWriter(c.env, network.id, auditOf(c, 201)).createNode({ ...body, ...roleFields(roles) });
  return c.json(presentNode(node), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { networkId, ...page } = c.req.valid("query");
  return c.json(toPage(await listNodes(c.var.db, c.var.auth, page, networkId), page.limit, presentNode), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { node } = await nodeAccess(c.var.db, c.var.auth, c.req.valid("param").id, "read");
  return c.json(presentNode(node), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { node } = await nodeAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  const { roles, ...changes } = c.req.valid("json");
  const updated = await networkWriter(c.env, node.networkId, auditOf(c, 200)).updateNode(node.id, { ...changes, ...roleFields(roles) });
  return c.json(presentNode(updated), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { node } = await nodeAccess(c.var.db, c.var.auth, c.req.valid("param").id, "manage");
  await networkWriter(c.env, node.networkId, auditOf(c, 204)).deleteNode(node.id);
  return c.body(null, 204);
};

const wantsText = (accept: string | undefined) => !!accept && accept.includes("text/plain") && !accept.includes("application/json");

/** The access check, then the network's writer renders it from memory (one row read whatever the network's size). */
export const config: AppRouteHandler<typeof routes.config> = async (c) => {
  const { node } = await nodeAccess(c.var.db, c.var.auth, c.req.valid("param").id, "read");
  const rendered = await loadNodeConfig(c.env, node.networkId, node.id);
  if (wantsText(c.req.header("accept"))) return c.text(rendered.wgQuick, 200);
  return c.json(rendered, 200);
};
