import type { AppRouteHandler } from "../../lib/types";
import { managerOf } from "../../lib/principal";
import { auditOf } from "../../middleware/audit";
import { listRegionGateways, registerGateway, updateRegionGateway } from "../../services/inventory/managed-gateways";
import type * as routes from "./manager.routes";

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  return c.json(await listRegionGateways(c.var.db, managerOf(c).regionId, limit, cursor), 200);
};

export const register: AppRouteHandler<typeof routes.register> = async (c) =>
  c.json(await registerGateway(c.var.db, managerOf(c).regionId, c.req.valid("json"), auditOf(c, 201)), 201);

/** A manager only ever sees its own region's gateways: another region's id answers 404. */
export const update: AppRouteHandler<typeof routes.update> = async (c) =>
  c.json(await updateRegionGateway(c.var.db, managerOf(c).regionId, c.req.valid("param").id, c.req.valid("json"), auditOf(c, 200)), 200);
