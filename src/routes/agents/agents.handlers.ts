import { toPage } from "../../lib/pagination";
import { userOf } from "../../lib/principal";
import type { AppRouteHandler } from "../../lib/types";
import { auditOf } from "../../middleware/audit";
import { requirePlatformAdmin } from "../../middleware/auth";
import { issueEnrolmentToken } from "../../services/agents/enrolment";
import { findAgent, listAgents, revokeAgent } from "../../services/agents/registry";
import { offlineAfterSeconds } from "../../services/settings/settings";
import type * as routes from "./agents.routes";
import { presentAgent } from "./agents.schemas";

export const createToken: AppRouteHandler<typeof routes.createToken> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(await issueEnrolmentToken(c.var.db, c.req.valid("json"), userOf(c).userId, auditOf(c, 201)), 201);
};

export const list: AppRouteHandler<typeof routes.list> = async (c) => {
  const query = c.req.valid("query");
  const rows = await listAgents(c.var.db, query);
  const offline = await offlineAfterSeconds(c.env, c.var.db);
  return c.json(
    toPage(rows, query.limit, (agent) => presentAgent(agent, offline)),
    200,
  );
};

export const get: AppRouteHandler<typeof routes.get> = async (c) => {
  const agent = await findAgent(c.var.db, c.req.valid("param").id);
  return c.json(presentAgent(agent, await offlineAfterSeconds(c.env, c.var.db)), 200);
};

/** The answer shows the agent offline at once: a revoked credential reaches nothing. */
export const revoke: AppRouteHandler<typeof routes.revoke> = async (c) => {
  requirePlatformAdmin(userOf(c));
  return c.json(presentAgent(await revokeAgent(c.var.db, c.req.valid("param").id, auditOf(c, 200)), 0), 200);
};
