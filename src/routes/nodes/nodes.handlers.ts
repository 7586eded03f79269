import { userOf } from "../../lib/principal";
import { toPage } from "../../lib/pagination";
import { unwrap } from "../../lib/write-result";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { authorizeNodeDetail, authorizeNodeRead } from "../../services/networks/device-node-privacy";
import { loadNodeConfig } from "../../services/networks/views/node-configs";
import { keepReported, reportsOf, withReport, withReportOf } from "../../services/networks/views/node-reports";
import { listNodes } from "../../services/networks/views/pages";
import { networkWriter } from "../../objects/network/client";
import { networkForWrite, nodeForWrite } from "../../services/networks/write-routing";
import type * as routes from "./nodes.routes";
import { presentNode } from "../../schemas/nodes";

/** `roles: ["gateway"]` in the API is `isGateway` in storage. */
const roleFields = (roles: string[] | undefined) => (roles === undefined ? {} : { isGateway: roles.includes("gateway") });

/** Writes: the network's writer authorises the caller, session included (objects/network/authority/write-authority.ts). */
export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { networkId: named, roles, ...body } = c.req.valid("json");
  const caller = userOf(c);
  const networkId = await networkForWrite(c.var.db, named, caller);
  const writer = networkWriter(c.env, networkId);
  const node = await unwrap(writer.createNode(networkId, { ...body, ...roleFields(roles) }, auditOf(c, 201), caller));
  return c.json(presentNode(node), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { networkId, ...page } = c.req.valid("query");
  const rows = await listNodes(c.var.db, userOf(c), page, networkId);
  const reports = await reportsOf(c.env, rows.slice(0, page.limit));
  return c.json(
    toPage(rows, page.limit, (row) => presentNode(withReport(row, reports.get(row.id)), !row.detail)),
    200,
  );
};

/** Another member's device node: the entry the network's node list shows, without its owner's detail. */
export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { node, detail } = await authorizeNodeRead(c.var.db, userOf(c), c.req.valid("param").id);
  return c.json(presentNode(detail ? await withReportOf(c.env, node) : node, !detail), 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { id } = c.req.valid("param");
  const caller = userOf(c);
  const { networkId, reported } = await nodeForWrite(c.var.db, id, caller);
  const { roles, ...changes } = c.req.valid("json");
  const writer = networkWriter(c.env, networkId);
  const updated = await unwrap(writer.updateNode(networkId, id, { ...changes, ...roleFields(roles) }, auditOf(c, 200), caller));
  return c.json(presentNode(await withReportOf(c.env, keepReported(updated, reported))), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { id } = c.req.valid("param");
  const caller = userOf(c);
  const { networkId } = await nodeForWrite(c.var.db, id, caller);
  await unwrap(networkWriter(c.env, networkId).deleteNode(networkId, id, auditOf(c, 204), caller));
  return c.body(null, 204);
};

const wantsText = (accept: string | undefined) => !!accept && accept.includes("text/plain") && !accept.includes("application/json");

/**
 * The access check (another member's device node is 404), then the network's writer renders it from memory
 * (one row read whatever the network's size).
 */
export const config: AppRouteHandler<typeof routes.config> = async (c) => {
  const { node } = await authorizeNodeDetail(c.var.db, userOf(c), c.req.valid("param").id);
  const rendered = await loadNodeConfig(c.env, node.networkId, node.id);
  if (wantsText(c.req.header("accept"))) return c.text(rendered.wgQuick, 200);
  return c.json(rendered, 200);
};
