import type { AppRouteHandler } from "../../lib/types";
import { userOf } from "../../lib/principal";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import * as gateways from "../../services/inventory/gateways";
import * as regions from "../../services/inventory/regions";
import type * as routes from "./inventory.routes";

export const createRegion: AppRouteHandler<typeof routes.createRegion> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(await regions.createRegion(c.var.db, c.req.valid("json"), auditOf(c, 201)), 201);
};

export const listRegions: AppRouteHandler<typeof routes.listRegions> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  return c.json(await regions.listRegions(c.var.db, limit, cursor), 200);
};

export const getRegion: AppRouteHandler<typeof routes.getRegion> = async (c) =>
  c.json(await regions.findRegion(c.var.db, c.req.valid("param").id), 200);

export const updateRegion: AppRouteHandler<typeof routes.updateRegion> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(await regions.updateRegion(c.var.db, c.req.valid("param").id, c.req.valid("json"), auditOf(c, 200)), 200);
};

export const deleteRegion: AppRouteHandler<typeof routes.deleteRegion> = async (c) => {
  requirePlatformAdmin(userOf(c));
  await regions.deleteRegion(c.var.db, c.req.valid("param").id, auditOf(c, 204));
  return c.body(null, 204);
};

export const createGateway: AppRouteHandler<typeof routes.createGateway> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(await gateways.createGateway(c.var.db, c.req.valid("json"), auditOf(c, 201)), 201);
};

export const listGateways: AppRouteHandler<typeof routes.listGateways> = async (c) =>
  c.json(await gateways.listGateways(c.var.db, c.req.valid("query")), 200);

export const getGateway: AppRouteHandler<typeof routes.getGateway> = async (c) =>
  c.json(await gateways.gatewayDetail(c.var.db, userOf(c), c.req.valid("param").id), 200);

export const updateGateway: AppRouteHandler<typeof routes.updateGateway> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(await gateways.updateGateway(c.var.db, c.req.valid("param").id, c.req.valid("json"), auditOf(c, 200)), 200);
};

export const deleteGateway: AppRouteHandler<typeof routes.deleteGateway> = async (c) => {
  requirePlatformAdmin(userOf(c));
  await gateways.deleteGateway(c.var.db, c.req.valid("param").id, auditOf(c, 204));
  return c.body(null, 204);
};
