import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { unwrap } from "../../lib/write-result";
import { auditOf } from "../../middleware/audit";
import { authorizeDevice } from "../../services/networks/device-authorization";
import type { NodeHot } from "../../objects/network/client";
import { keepReported, reportsOf, withReport } from "../../services/networks/views/node-reports";
import { listDevices } from "../../services/networks/views/pages";
import { networkWriter } from "../../objects/network/client";
import { offlineAfterSeconds } from "../../services/settings/settings";
import { presentDevice } from "../../schemas/devices";
import type * as routes from "./devices.routes";

/** A device as the API shows it: D1's rows with what it last reported (held by its network's writer). */
const presentReported = (
  device: Parameters<typeof presentDevice>[0],
  node: Parameters<typeof presentDevice>[1] & { id: string; networkId: string },
  report: NodeHot | undefined,
  offline: number,
) => presentDevice(report ? { ...device, reportedEndpoint: report.reportedEndpoint } : device, withReport(node, report), offline);

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { networkId, ...page } = c.req.valid("query");
  const [rows, offline] = await Promise.all([listDevices(c.var.db, userOf(c), page, networkId), offlineAfterSeconds(c.env, c.var.db)]);
  const reports = await reportsOf(
    c.env,
    rows.slice(0, page.limit).map((row) => row.node),
  );
  return c.json(
    toPage(rows, page.limit, (row) => presentReported(row.device, row.node, reports.get(row.node.id), offline)),
    200,
  );
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  // Independent reads: the access check and the threshold go together.
  const [{ device, node }, offline] = await Promise.all([
    authorizeDevice(c.var.db, userOf(c), c.req.valid("param").id),
    offlineAfterSeconds(c.env, c.var.db),
  ]);
  return c.json(presentReported(device, node, (await reportsOf(c.env, [node])).get(node.id), offline), 200);
};

export const rename: AppRouteHandler<typeof routes.rename> = async (c) => {
  const { device, node: before } = await authorizeDevice(c.var.db, userOf(c), c.req.valid("param").id);
  const written = await unwrap(
    networkWriter(c.env, device.networkId).renameDevice(device.networkId, device.nodeId, c.req.valid("json").name, auditOf(c, 200)),
  );
  const node = keepReported(written, before);
  const [reports, offline] = await Promise.all([reportsOf(c.env, [node]), offlineAfterSeconds(c.env, c.var.db)]);
  return c.json(presentReported(device, node, reports.get(node.id), offline), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { device } = await authorizeDevice(c.var.db, userOf(c), c.req.valid("param").id);
  await unwrap(networkWriter(c.env, device.networkId).removeDevice(device.networkId, device.id, auditOf(c, 204)));
  return c.body(null, 204);
};

export const getRouting: AppRouteHandler<typeof routes.getRouting> = async (c) => {
  const { node } = await authorizeDevice(c.var.db, userOf(c), c.req.valid("param").id);
  return c.json({ mode: node.routingMode, policyIds: node.routingPolicyIds }, 200);
};

export const putRouting: AppRouteHandler<typeof routes.putRouting> = async (c) => {
  const { device } = await authorizeDevice(c.var.db, userOf(c), c.req.valid("param").id);
  const { mode, policyIds } = c.req.valid("json");
  const node = await unwrap(
    networkWriter(c.env, device.networkId).setRoutingPreference(device.networkId, device.nodeId, mode, policyIds, auditOf(c, 200)),
  );
  return c.json({ mode: node.routingMode, policyIds: node.routingPolicyIds }, 200);
};
