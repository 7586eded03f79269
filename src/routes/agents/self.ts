import { createRoute, z } from "@hono/zod-openapi";
import { displayName } from "../../lib/display-name";
import { eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { agents } from "../../db/schema";
import { createRouter } from "../../lib/create-router";
import { notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { errorResponses, jsonBody, jsonResponse } from "../../lib/openapi";
import type { AppEnv, AppRouteHandler } from "../../lib/types";
import { requireAgent } from "../../middleware/agent-auth";
import { sha256 } from "../../services/auth/tokens";
import { enrolAgent, newAgentCredential } from "../../services/agents/enrolment";
import { offlineAfterSeconds } from "../../services/settings/settings";
import { AgentCredentialSchema, AgentEnrolBody, AgentSchema, presentAgent } from "./agents.schemas";

const tags = ["Agents"];
export const asAgent = { middleware: [requireAgent] as MiddlewareHandler<AppEnv>[], security: [{ bearerAuth: [] }] };

const enrol = createRoute({
  method: "post", path: "/agents/enrol", tags, summary: "An agent trades its enrolment token for its own credential",
  request: { body: jsonBody(AgentEnrolBody) },
  responses: { 201: jsonResponse(AgentCredentialSchema, "Enrolled"), ...errorResponses(401, 413, 415, 422) },
});
const me = createRoute({
  method: "get", path: "/agents/me", tags, ...asAgent, summary: "The calling agent",
  responses: { 200: jsonResponse(AgentSchema, "The agent"), ...errorResponses(401) },
});
const update = createRoute({
  method: "patch", path: "/agents/me", tags, ...asAgent, summary: "Report the agent's version",
  request: { body: jsonBody(z.strictObject({ version: displayName({ max: 64 }) }).openapi("UpdateAgent")) },
  responses: { 200: jsonResponse(AgentSchema, "Updated"), ...errorResponses(401, 413, 415, 422) },
});
const rotate = createRoute({
  method: "post", path: "/agents/me/credential", tags, ...asAgent,
  summary: "Rotate the agent's credential: the new one is returned, the old one stops working at once",
  responses: { 200: jsonResponse(AgentCredentialSchema, "Rotated"), ...errorResponses(401) },
});

const offline = (c: { env: AppEnv["Bindings"]; var: { db: AppEnv["Variables"]["db"] } }) => offlineAfterSeconds(c.env, c.var.db);

async function current(c: { var: { db: AppEnv["Variables"]["db"]; agent: AppEnv["Variables"]["agent"] } }) {
  const agent = await c.var.db.select().from(agents).where(eq(agents.id, c.var.agent.agentId)).get();
  if (!agent) throw notFound("Agent");
  return agent;
}

const enrolHandler: AppRouteHandler<typeof enrol> = async (c) => {
  const { token, ...details } = c.req.valid("json");
  const { agent, credential } = await enrolAgent(c.var.db, token, details);
  return c.json({ agent: presentAgent(agent, await offline(c)), credential }, 201);
};

const meHandler: AppRouteHandler<typeof me> = async (c) => c.json(presentAgent(await current(c), await offline(c)), 200);

const updateHandler: AppRouteHandler<typeof update> = async (c) => {
  const next = { ...(await current(c)), version: c.req.valid("json").version, updatedAt: nowIso() };
  await c.var.db.update(agents).set({ version: next.version, updatedAt: next.updatedAt }).where(eq(agents.id, next.id));
  return c.json(presentAgent(next, await offline(c)), 200);
};

const rotateHandler: AppRouteHandler<typeof rotate> = async (c) => {
  const credential = newAgentCredential();
  const agent = { ...(await current(c)), credentialHash: sha256(credential), updatedAt: nowIso() };
  await c.var.db.update(agents).set({ credentialHash: agent.credentialHash, updatedAt: agent.updatedAt }).where(eq(agents.id, agent.id));
  return c.json({ agent: presentAgent(agent, await offline(c)), credential }, 200);
};

export const agentSelfRouter = createRouter()
  .openapi(enrol, enrolHandler)
  .openapi(me, meHandler)
  .openapi(update, updateHandler)
  .openapi(rotate, rotateHandler);
