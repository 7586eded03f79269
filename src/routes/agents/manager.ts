import { createRoute, z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { and, asc, eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { gateways } from "../../db/schema";
import { createRouter } from "../../lib/create-router";
import { uniquely } from "../../lib/db-errors";
import { notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import { afterCursor, PageQuery, pageOf, toPage } from "../../lib/pagination";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { agentOfKind, requireAgent } from "../../middleware/agent-auth";
import { GatewaySchema, PublicHost, UpdateGatewayBody } from "../inventory/inventory.schemas";

const tags = ["Agents"];
const asManager = { middleware: [requireAgent, agentOfKind("gateway-manager")] as MiddlewareHandler<AppEnv>[], security: [{ bearerAuth: [] }] };
const Health = z.enum(["unknown", "healthy", "degraded", "down"]);

const RegisterBody = z.strictObject({
  name: displayName({ min: 1, max: 100 }),
  publicHost: PublicHost.nullable().default(null),
  capacity: z.number().int().min(0).max(1_000_000).nullable().default(null),
  health: Health.default("unknown"),
}).openapi("RegisterGateway");

const ManagedGateway = GatewaySchema;

const list = createRoute({
  method: "get", path: "/agents/me/gateways", tags, ...asManager, summary: "The gateways of the manager's region",
  request: { query: PageQuery },
  responses: { 200: jsonResponse(pageOf(ManagedGateway, "ManagedGatewayPage"), "A page of gateways"), ...errorResponses(401, 403, 422) },
});
const register = createRoute({
  method: "post", path: "/agents/me/gateways", tags, ...asManager, summary: "Register a gateway in the manager's region",
  request: { body: jsonBody(RegisterBody) },
  responses: { 201: jsonResponse(ManagedGateway, "Registered"), ...errorResponses(401, 403, 409, 413, 415, 422) },
});
const update = createRoute({
  method: "patch", path: "/agents/me/gateways/{id}", tags, ...asManager, summary: "Update a gateway of the region: endpoint, capacity, status, health",
  request: { params: IdParam("Gateway", "gw"), body: jsonBody(UpdateGatewayBody.extend({ health: Health.optional() }).openapi("ManagerGatewayUpdate")) },
  responses: { 200: jsonResponse(ManagedGateway, "Updated"), ...errorResponses(401, 403, 404, 409, 413, 415, 422) },
});

const listHandler: AppRouteHandler<typeof list> = async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const rows = await c.var.db.select().from(gateways)
    .where(and(eq(gateways.regionId, c.var.agent.regionId!), afterCursor({ createdAt: gateways.createdAt, id: gateways.id }, cursor)))
    .orderBy(asc(gateways.createdAt), asc(gateways.id)).limit(limit + 1).all();
  return c.json(toPage(rows, limit, (row) => row), 200);
};

const registerHandler: AppRouteHandler<typeof register> = async (c) => {
  const now = nowIso();
  const body = c.req.valid("json");
  const row = {
    id: newId("gw"), regionId: c.var.agent.regionId!, status: "active" as const, ...body,
    healthCheckedAt: body.health === "unknown" ? null : now, createdAt: now, updatedAt: now,
  };
  await uniquely("gateway", () => c.var.db.insert(gateways).values(row));
  return c.json(row, 201);
};

/** A manager only ever sees its own region's gateways: another region's id answers 404. */
const updateHandler: AppRouteHandler<typeof update> = async (c) => {
  const where = and(eq(gateways.id, c.req.valid("param").id), eq(gateways.regionId, c.var.agent.regionId!));
  const gateway = await c.var.db.select().from(gateways).where(where).get();
  if (!gateway) throw notFound("Gateway");
  const changes = c.req.valid("json");
  const now = nowIso();
  const next = { ...gateway, ...changes, healthCheckedAt: changes.health ? now : gateway.healthCheckedAt, updatedAt: now };
  await uniquely("gateway", () => c.var.db.update(gateways).set(next).where(where));
  return c.json(next, 200);
};

export const agentManagerRouter = createRouter()
  .openapi(list, listHandler)
  .openapi(register, registerHandler)
  .openapi(update, updateHandler);
