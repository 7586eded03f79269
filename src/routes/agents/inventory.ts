import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import { agentEnrolmentTokens, agents, gateways, regions } from "../../db/schema";
import { createRouter } from "../../lib/create-router";
import { domainError, notFound } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import { errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import { signedIn } from "../../middleware/auth";
import { afterCursor, PageQuery, pageOf, toPage } from "../../lib/pagination";
import type { AppRouteHandler } from "../../lib/types";
import { randomToken, sha256 } from "../../services/auth/tokens";
import { AGENT_ENROLMENT_PREFIX } from "../../services/agents/enrolment";
import { offlineAfterSeconds } from "../../services/settings/settings";
import { requirePlatformAdmin } from "../users/users.handlers";
import { AgentSchema, EnrolmentTokenBody, EnrolmentTokenSchema, presentAgent } from "./agents.schemas";

const tags = ["Agents"];

const createToken = createRoute({
  method: "post", path: "/agents/enrolment-tokens", tags, ...signedIn, summary: "Issue a single-use agent enrolment token (platform admins)",
  request: { body: jsonBody(EnrolmentTokenBody) },
  responses: { 201: jsonResponse(EnrolmentTokenSchema, "Issued"), ...errorResponses(400, 401, 403, 413, 415, 422) },
});
const list = createRoute({
  method: "get", path: "/agents", tags, ...signedIn, summary: "Gateway-manager and gateway-daemon agents (read-only inventory)",
  request: { query: PageQuery.extend({ kind: z.enum(["gateway-manager", "gateway-daemon"]).optional(), status: z.enum(["active", "revoked"]).optional() }) },
  responses: { 200: jsonResponse(pageOf(AgentSchema, "AgentPage"), "A page of agents"), ...errorResponses(401, 422) },
});
const get = createRoute({
  method: "get", path: "/agents/{id}", tags, ...signedIn, summary: "One agent",
  request: { params: IdParam("Agent", "agt") },
  responses: { 200: jsonResponse(AgentSchema, "The agent"), ...errorResponses(401, 404) },
});
const revoke = createRoute({
  method: "post", path: "/agents/{id}/revoke", tags, ...signedIn, summary: "Revoke an agent's credential at once (platform admins)",
  request: { params: IdParam("Agent", "agt") },
  responses: { 200: jsonResponse(AgentSchema, "Revoked"), ...errorResponses(401, 403, 404) },
});

const createTokenHandler: AppRouteHandler<typeof createToken> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const body = c.req.valid("json");
  const exists = body.regionId
    ? await c.var.db.select({ id: regions.id }).from(regions).where(eq(regions.id, body.regionId)).get()
    : await c.var.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.id, body.gatewayId!)).get();
  if (!exists) throw domainError(body.regionId ? `regionId ${body.regionId} is not a region` : `gatewayId ${body.gatewayId} is not a gateway`);
  const token = `${AGENT_ENROLMENT_PREFIX}${randomToken()}`;
  const row = {
    id: newId("aet"), kind: body.kind, regionId: body.regionId ?? null, gatewayId: body.gatewayId ?? null, tokenHash: sha256(token),
    createdBy: c.var.auth.userId, expiresAt: secondsFromNow(body.expiresInSeconds),
    usedAt: null, usedByAgentId: null, createdAt: nowIso(),
  };
  await c.var.db.insert(agentEnrolmentTokens).values(row);
  return c.json({ id: row.id, kind: row.kind, regionId: row.regionId, gatewayId: row.gatewayId, expiresAt: row.expiresAt, token }, 201);
};

const listHandler: AppRouteHandler<typeof list> = async (c) => {
  const { limit, cursor, kind, status } = c.req.valid("query");
  const rows = await c.var.db.select().from(agents).where(and(
    afterCursor(agents, cursor), kind ? eq(agents.kind, kind) : undefined,
    status === "revoked" ? isNotNull(agents.revokedAt) : status === "active" ? isNull(agents.revokedAt) : undefined,
  )).orderBy(asc(agents.createdAt), asc(agents.id)).limit(limit + 1).all();
  const offline = await offlineAfterSeconds(c.env, c.var.db);
  return c.json(toPage(rows, limit, (agent) => presentAgent(agent, offline)), 200);
};

async function findAgent(c: { var: { db: Parameters<AppRouteHandler<typeof get>>[0]["var"]["db"] } }, id: string) {
  const agent = await c.var.db.select().from(agents).where(eq(agents.id, id)).get();
  if (!agent) throw notFound("Agent");
  return agent;
}

const getHandler: AppRouteHandler<typeof get> = async (c) => {
  const agent = await findAgent(c, c.req.valid("param").id);
  return c.json(presentAgent(agent, await offlineAfterSeconds(c.env, c.var.db)), 200);
};

const revokeHandler: AppRouteHandler<typeof revoke> = async (c) => {
  requirePlatformAdmin(c.var.auth);
  const agent = await findAgent(c, c.req.valid("param").id);
  const revokedAt = agent.revokedAt ?? nowIso();
  await c.var.db.update(agents).set({ revokedAt, updatedAt: nowIso() }).where(eq(agents.id, agent.id));
  return c.json(presentAgent({ ...agent, revokedAt }, 0), 200);
};

export const agentInventoryRouter = createRouter()
  .openapi(createToken, createTokenHandler)
  .openapi(list, listHandler)
  .openapi(get, getHandler)
  .openapi(revoke, revokeHandler);
