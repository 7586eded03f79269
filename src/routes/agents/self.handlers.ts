import type { AppRouteHandler } from "../../lib/types";
import { agentOf } from "../../lib/principal";
import { auditOf } from "../../middleware/audit";
import { enrolAgent } from "../../services/agents/enrolment";
import { findAgent, reportVersion, rotateCredential } from "../../services/agents/registry";
import { offlineAfterSeconds } from "../../services/settings/settings";
import { presentAgent } from "./agents.schemas";
import type * as routes from "./self.routes";

export const enrol: AppRouteHandler<typeof routes.enrol> = async (c) => {
  const { token, ...details } = c.req.valid("json");
  const { agent, credential } = await enrolAgent(c.var.db, token, details, auditOf(c, 201));
  return c.json({ agent: presentAgent(agent, await offlineAfterSeconds(c.env, c.var.db)), credential }, 201);
};

export const me: AppRouteHandler<typeof routes.me> = async (c) =>
  c.json(presentAgent(await findAgent(c.var.db, agentOf(c).agentId), await offlineAfterSeconds(c.env, c.var.db)), 200);

export const update: AppRouteHandler<typeof routes.update> = async (c) => {
  const agent = await reportVersion(c.var.db, agentOf(c).agentId, c.req.valid("json").version, auditOf(c, 200));
  return c.json(presentAgent(agent, await offlineAfterSeconds(c.env, c.var.db)), 200);
};

export const rotate: AppRouteHandler<typeof routes.rotate> = async (c) => {
  const { agent, credential } = await rotateCredential(c.var.db, agentOf(c).agentId, auditOf(c, 200));
  return c.json({ agent: presentAgent(agent, await offlineAfterSeconds(c.env, c.var.db)), credential }, 200);
};
