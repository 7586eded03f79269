import { getConfig } from "../../lib/env";
import { userOf } from "../../lib/principal";
import { toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { retryDelivery } from "../../services/notifications/channel-test";
import { findDelivery, listDeliveries } from "../../services/notifications/deliveries";
import type * as routes from "./deliveries.routes";
import { presentDelivery } from "./deliveries.schemas";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const query = c.req.valid("query");
  return c.json(toPage(await listDeliveries(c.var.db, userOf(c).userId, query), query.limit, presentDelivery), 200);
};

export const get: AppRouteHandler<typeof routes.get> = async (c) =>
  c.json(presentDelivery(await findDelivery(c.var.db, userOf(c).userId, c.req.valid("param").id)), 200);

export const retry: AppRouteHandler<typeof routes.retry> = async (c) => {
  const delivery = await retryDelivery(c.var.db, getConfig(c.env), userOf(c).userId, c.req.valid("param").id, auditOf(c, 200));
  return c.json(presentDelivery(delivery), 200);
};
