import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { gateways, memberships, networks, nodes, regions } from "../../db/schema";
import { uniquely } from "../../lib/db-errors";
import { conflict, domainError, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { afterCursor, toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { requirePlatformAdmin } from "../users/users.handlers";
import type * as routes from "./inventory.routes";

const same = <T>(row: T) => row;

export const createRegion: AppRouteHandler<typeof routes.createRegion> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const now = nowIso();
  const row = { id: newId("reg"), ...c.req.valid("json"), createdAt: now, updatedAt: now };
  await uniquely("region", () => c.var.db.insert(regions).values(row));
  return c.json(row, 201);
};

export const listRegions: AppRouteHandler<typeof routes.listRegions> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await c.var.db.select().from(regions).where(afterCursor(regions, cursor))
    .orderBy(asc(regions.createdAt), asc(regions.id)).limit(limit + 1).all();
  return c.json(toPage(rows, limit, same), 200);
};

async function findRegion(db: Db, id: string) {
  const region = await db.select().from(regions).where(eq(regions.id, id)).get();
  if (!region) throw notFound("Region");
  return region;
}

export const getRegion: AppRouteHandler<typeof routes.getRegion> = async (c) =>
  c.json(await findRegion(c.var.db, c.req.valid("param").id), 200);

export const updateRegion: AppRouteHandler<typeof routes.updateRegion> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const next = { ...(await findRegion(c.var.db, c.req.valid("param").id)), ...c.req.valid("json"), updatedAt: nowIso() };
  await uniquely("region", () => c.var.db.update(regions).set(next).where(eq(regions.id, next.id)));
  return c.json(next, 200);
};

export const deleteRegion: AppRouteHandler<typeof routes.deleteRegion> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const region = await findRegion(c.var.db, c.req.valid("param").id);
  const gateway = await c.var.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.regionId, region.id)).limit(1).get();
  if (gateway) throw conflict("The region still has gateways");
  await uniquely("region", () => c.var.db.delete(regions).where(eq(regions.id, region.id)));
  return c.body(null, 204);
};

export const createGateway: AppRouteHandler<typeof routes.createGateway> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const body = c.req.valid("json");
  const region = await c.var.db.select({ id: regions.id }).from(regions).where(eq(regions.id, body.regionId)).get();
  if (!region) throw domainError(`regionId ${body.regionId} is not a region`);
  const now = nowIso();
  const row = { id: newId("gw"), ...body, health: "unknown" as const, healthCheckedAt: null, createdAt: now, updatedAt: now };
  await uniquely("gateway", () => c.var.db.insert(gateways).values(row));
  return c.json(row, 201);
};

export const listGateways: AppRouteHandler<typeof routes.listGateways> = async (c) => {
  const { limit, cursor, regionId, status } = c.req.valid("query");
  const rows = await c.var.db.select().from(gateways)
    .where(and(afterCursor(gateways, cursor), regionId ? eq(gateways.regionId, regionId) : undefined, status ? eq(gateways.status, status) : undefined))
    .orderBy(asc(gateways.createdAt), asc(gateways.id)).limit(limit + 1).all();
  return c.json(toPage(rows, limit, same), 200);
};

async function findGateway(db: Db, id: string) {
  const gateway = await db.select().from(gateways).where(eq(gateways.id, id)).get();
  if (!gateway) throw notFound("Gateway");
  return gateway;
}

/** The served networks are filtered by the caller's memberships: the inventory must not reveal other tenants. */
export const getGateway: AppRouteHandler<typeof routes.getGateway> = async (c) => {
  const gateway = await findGateway(c.var.db, c.req.valid("param").id);
  const { auth } = c.var;
  const served = c.var.db.select({ networkId: nodes.networkId, nodeId: nodes.id }).from(nodes)
    .innerJoin(networks, eq(networks.id, nodes.networkId));
  const visible = auth.platformRole === "admin"
    ? served.where(eq(nodes.gatewayId, gateway.id))
    : served.innerJoin(memberships, and(eq(memberships.groupId, networks.groupId), eq(memberships.userId, auth.userId)))
      .where(eq(nodes.gatewayId, gateway.id));
  return c.json({ ...gateway, networks: await visible.limit(1000).all() }, 200);
};

export const updateGateway: AppRouteHandler<typeof routes.updateGateway> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const next = { ...(await findGateway(c.var.db, c.req.valid("param").id)), ...c.req.valid("json"), updatedAt: nowIso() };
  await uniquely("gateway", () => c.var.db.update(gateways).set(next).where(eq(gateways.id, next.id)));
  return c.json(next, 200);
};

export const deleteGateway: AppRouteHandler<typeof routes.deleteGateway> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const gateway = await findGateway(c.var.db, c.req.valid("param").id);
  const node = await c.var.db.select({ id: nodes.id }).from(nodes).where(eq(nodes.gatewayId, gateway.id)).limit(1).get();
  if (node) throw conflict(`Gateway node ${node.id} still runs on this gateway`);
  await uniquely("gateway", () => c.var.db.delete(gateways).where(eq(gateways.id, gateway.id)));
  return c.body(null, 204);
};
