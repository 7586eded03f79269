import type { Context } from "hono";
import { userOf } from "../../lib/principal";
import { toPage } from "../../lib/pagination";
import { unwrap } from "../../lib/write-result";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import { authorizeGroup, authorizeNetwork } from "../../services/authorization";
import type { NetworkChanges } from "../../objects/group/client";
import type { NetworkRow } from "../../db/rows";
import { listNetworks } from "../../services/networks/views/pages";
import { loadRuntimeStatus } from "../../services/networks/views/runtime-status";
import { groupWriter } from "../../objects/group/client";
import { networkWriter } from "../../objects/network/client";
import type * as routes from "./networks.routes";
import { defaultDnsDomain } from "./networks.schemas";

const present = (row: NetworkRow) => row;

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const body = c.req.valid("json");
  const { group } = await authorizeGroup(c.var.db, userOf(c), body.groupId, "manage");
  const input = { groupId: group.id, name: body.name, cidr: body.cidr, dnsDomain: body.dnsDomain ?? defaultDnsDomain(body.name) };
  const network = await unwrap(groupWriter(c.env, group.id).createNetwork(input, auditOf(c, 201)));
  return c.json(present(network), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { groupId, ...page } = c.req.valid("query");
  return c.json(toPage(await listNetworks(c.var.db, userOf(c), page, groupId), page.limit, present), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json(present(network), 200);
};

/** PATCH and PUT differ only in which fields their bodies require; the change itself is the same. */
async function update(c: Context<AppEnv>, id: string, changes: NetworkChanges) {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), id, "manage");
  return present(await unwrap(networkWriter(c.env, network.id).updateNetwork(network.id, network.groupId, changes, auditOf(c, 200))));
}

export const patch: AppRouteHandler<typeof routes.patch> = async (c) =>
  c.json(await update(c, c.req.valid("param").id, c.req.valid("json")), 200);

export const put: AppRouteHandler<typeof routes.put> = async (c) =>
  c.json(await update(c, c.req.valid("param").id, c.req.valid("json")), 200);

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  await unwrap(networkWriter(c.env, network.id).deleteNetwork(network.id, auditOf(c, 204)));
  return c.body(null, 204);
};

export const runtimeStatus: AppRouteHandler<typeof routes.runtimeStatus> = async (c) => {
  const { network, role } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json(await loadRuntimeStatus(c.env, c.var.db, network, { auth: userOf(c), role }), 200);
};

export const relayedPairs: AppRouteHandler<typeof routes.relayedPairs> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  return c.json({ items: await unwrap(networkWriter(c.env, network.id).readRelayedPairs(network.id)) }, 200);
};

/** Diagnostics of the network's writer, for platform admins (it is infrastructure, not a tenant's data). */
export const writerStats: AppRouteHandler<typeof routes.writerStats> = async (c) => {
  requirePlatformAdmin(userOf(c));
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json(await networkWriter(c.env, network.id).stats(), 200);
};
