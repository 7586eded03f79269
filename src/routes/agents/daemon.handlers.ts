import type { AppRouteHandler } from "../../lib/types";
import { desiredStateEtag, renderDesiredState, servedNodes } from "../../services/agents/desired-state";
import { applyReport } from "../../services/agents/reports";
import { matchesEtag } from "../../services/networks/views/dns-artifacts";
import type * as routes from "./daemon.routes";
import { parseHeld } from "./daemon.schemas";

/** A daemon agent's token names its gateway (agentOfKind guarantees one). */
const gatewayOf = (c: { var: { agent: { gatewayId: string | null } } }) => c.var.agent.gatewayId!;

/** A poll whose ETag matches answers 304 after one query, before anything is rendered. */
export const desired: AppRouteHandler<typeof routes.desired> = async (c) => {
  const served = await servedNodes(c.var.db, gatewayOf(c));
  const etag = desiredStateEtag(served);
  c.header("ETag", etag);
  if (matchesEtag(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  const held = parseHeld(c.req.valid("query").held);
  return c.json(await renderDesiredState(c.env, c.var.db, gatewayOf(c), served, held), 200);
};

/** Telemetry: not audited (middleware/audit.ts NOT_AUDITED). */
export const report: AppRouteHandler<typeof routes.report> = async (c) =>
  c.json({ nodes: await applyReport(c.var.db, gatewayOf(c), c.req.valid("json").nodes) }, 200);
