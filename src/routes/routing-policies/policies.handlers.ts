import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { unwrap } from "../../lib/write-result";
import { auditOf } from "../../middleware/audit";
import { authorizeNetwork, authorizePolicy } from "../../services/authorization";
import { getConfig } from "../../lib/env";
import { poolHealthRules } from "../../services/networks/pools/vitals";
import { loadPolicyStatus } from "../../services/networks/views/gateway-pools";
import { listPolicies } from "../../services/networks/views/pages";
import { networkForWrite, networkOfPolicyFor } from "../../services/networks/write-routing";
import { networkWriter } from "../../objects/network/client";
import type * as routes from "./policies.routes";
import { presentPolicy } from "./policies.schemas";

/** Writes: the network's writer checks the caller's session and role (objects/network/authority/write-authority.ts); the Worker reads neither. */
export const create: AppRouteHandler<typeof routes.create> = async (c) => {
  const caller = userOf(c);
  const networkId = await networkForWrite(c.var.db, c.req.valid("param").id, caller);
  const policy = await unwrap(networkWriter(c.env, networkId).createPolicy(networkId, c.req.valid("json"), caller, auditOf(c, 201)));
  return c.json(presentPolicy(policy), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { network } = await authorizeNetwork(c.var.db, userOf(c), c.req.valid("param").id, "read");
  const page = c.req.valid("query");
  return c.json(toPage(await listPolicies(c.var.db, network.id, page), page.limit, presentPolicy), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const { policy } = await authorizePolicy(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json(presentPolicy(policy), 200);
};

export const replace: AppRouteHandler<typeof routes.replace> = async (c) => {
  const { id } = c.req.valid("param");
  const caller = userOf(c);
  const networkId = await networkOfPolicyFor(c.var.db, id, caller);
  const updated = await unwrap(networkWriter(c.env, networkId).replacePolicy(networkId, id, c.req.valid("json"), caller, auditOf(c, 200)));
  return c.json(presentPolicy(updated), 200);
};

export const remove: AppRouteHandler<typeof routes.remove> = async (c) => {
  const { id } = c.req.valid("param");
  const caller = userOf(c);
  const networkId = await networkOfPolicyFor(c.var.db, id, caller);
  await unwrap(networkWriter(c.env, networkId).deletePolicy(networkId, id, caller, auditOf(c, 204)));
  return c.body(null, 204);
};

export const status: AppRouteHandler<typeof routes.status> = async (c) => {
  const { policy } = await authorizePolicy(c.var.db, userOf(c), c.req.valid("param").id, "read");
  return c.json(await loadPolicyStatus(c.env, c.var.db, poolHealthRules(getConfig(c.env)), policy), 200);
};
