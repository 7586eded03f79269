import type { AppRouteHandler } from "../../lib/types";
import { agentOf, daemonOf } from "../../lib/principal";
import { auditOf } from "../../middleware/audit";
import { assertStillAuthorised } from "../../middleware/still-authorised";
import { presentNode } from "../../schemas/nodes";
import { putAgentNodeState } from "../../services/agents/agent-nodes";
import { desiredStateEtag, renderDesiredState, servedNodes } from "../../services/agents/desired-state";
import { awaitDesiredStateChange } from "../../services/agents/long-poll";
import { applyReport } from "../../services/agents/reports";
import { matchesEtag } from "../../services/networks/views/dns-artifacts";
import type * as routes from "./daemon.routes";
import { parseHeld } from "./daemon.schemas";

/**
 * A poll whose ETag matches answers 304 after one query, before anything is rendered; with `wait` it first
 * waits for a change (one query a second, or at once when a served network's writer moves its routing
 * revision), and ends early when the daemon hangs up. A poll that waited
 * checks its credential again before it answers (after rendering, so nothing rendered after a revocation
 * leaves): an agent revoked or rotated while it waited gets 401, not the state that changed since.
 */
export const desired: AppRouteHandler<typeof routes.desired> = async (c) => {
  const query = c.req.valid("query");
  let served = await servedNodes(c.var.db, daemonOf(c).gatewayId);
  let etag = desiredStateEtag(served);
  const waits = query.wait > 0 && matchesEtag(c.req.header("if-none-match"), etag);
  if (matchesEtag(c.req.header("if-none-match"), etag)) {
    const changed = waits
      ? await awaitDesiredStateChange(c.env, c.var.db, daemonOf(c).gatewayId, served, query.wait, c.req.raw.signal)
      : null;
    if (!changed) {
      if (waits) await assertStillAuthorised(c);
      c.header("ETag", etag);
      return c.body(null, 304);
    }
    served = changed;
    etag = desiredStateEtag(served);
  }
  const state = await renderDesiredState(c.env, c.var.db, daemonOf(c).gatewayId, served, parseHeld(query.held));
  if (waits) await assertStillAuthorised(c);
  c.header("ETag", etag);
  return c.json(state, 200);
};

/** Telemetry: not audited (middleware/audit.ts NOT_AUDITED). */
export const report: AppRouteHandler<typeof routes.report> = async (c) =>
  c.json({ nodes: await applyReport(c.env, c.var.db, daemonOf(c).gatewayId, c.req.valid("json").nodes) }, 200);

/** The agent's identity goes into the writer, which decides there whether the node is its to change. */
export const putNode: AppRouteHandler<typeof routes.putNode> = async (c) => {
  const agent = { agentId: agentOf(c).agentId, gatewayId: daemonOf(c).gatewayId };
  const node = await putAgentNodeState(c.env, c.var.db, agent, c.req.valid("param").nodeId, c.req.valid("json"), auditOf(c, 200));
  return c.json(presentNode(node), 200);
};
