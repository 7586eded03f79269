import { getConfig } from "../../lib/env";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { unwrap } from "../../lib/write-result";
import { auditOf } from "../../middleware/audit";
import { authorizeNetwork, authorizePool } from "../../services/authorization";
import type { PoolRow } from "../../db/rows";
import { describePools, listPools } from "../../services/networks/views/gateway-pools";
import { poolHealthRules } from "../../services/networks/pools/vitals";
import { networkWriter } from "../../objects/network/client";
import type * as routes from "./pools.routes";
import { presentPool } from "./pools.schemas";

type Env = Parameters<typeof getConfig>[0];
const withHealth = async (env: Env, db: Parameters<typeof describePools>[1], pools: PoolRow[]) =>
  (await describePools(env, db, poolHealthRules(getConfig(env)), pools)).map(presentPool);

export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  const pool = await unwrap(networkWriter(c.env, network.id).createPool(network.id, c.req.valid("json"), auditOf(c, 201)));
  return c.json((await withHealth(c.env, c.var.db, [pool]))[0]!, 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json({ items: await withHealth(c.env, c.var.db, await listPools(c.var.db, network.id)) }, 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { pool } = await authorizePool(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json((await withHealth(c.env, c.var.db, [pool]))[0]!, 200);
};

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const { pool } = await authorizePool(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  const updated = await unwrap(
    networkWriter(c.env, pool.networkId).updatePool(pool.networkId, pool.id, c.req.valid("json"), auditOf(c, 200)),
  );
  return c.json((await withHealth(c.env, c.var.db, [updated]))[0]!, 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { pool } = await authorizePool(c.var.db, userOf(c), c.req.valid("param").id, "manage");
  await unwrap(networkWriter(c.env, pool.networkId).deletePool(pool.networkId, pool.id, auditOf(c, 204)));
  return c.body(null, 204);
};

export const drain: AppRouteHandler<typeof routes.drain> = async (c) => {
  const { id, nodeId } = c.req.valid("param");
  const { pool } = await authorizePool(c.var.db, userOf(c), id, "manage");
  const updated = await unwrap(
    networkWriter(c.env, pool.networkId).setPoolMemberDrained(pool.networkId, pool.id, nodeId, true, auditOf(c, 200)),
  );
  return c.json((await withHealth(c.env, c.var.db, [updated]))[0]!, 200);
};

export const undrain: AppRouteHandler<typeof routes.undrain> = async (c) => {
  const { id, nodeId } = c.req.valid("param");
  const { pool } = await authorizePool(c.var.db, userOf(c), id, "manage");
  const updated = await unwrap(
    networkWriter(c.env, pool.networkId).setPoolMemberDrained(pool.networkId, pool.id, nodeId, false, auditOf(c, 200)),
  );
  return c.json((await withHealth(c.env, c.var.db, [updated]))[0]!, 200);
};
