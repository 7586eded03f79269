import { and, eq, isNull, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { preparedPer } from "../db/prepared";
import { agents } from "../db/schema";
import { inBackground } from "../lib/background";
import { forbidden, unauthorized } from "../lib/errors";
import { nowIso } from "../lib/ids";
import { agentOf } from "../lib/principal";
import type { AgentPrincipal, AppEnv } from "../lib/types";
import { AGENT_CREDENTIAL_PREFIX } from "../services/agents/enrolment";
import { sha256 } from "../services/auth/tokens";
import { bearerToken } from "./auth";

/** Every agent request looks itself up: prepared once (db/prepared.ts). */
const agentByCredential = preparedPer((db) =>
  db
    .select()
    .from(agents)
    .where(and(eq(agents.credentialHash, sql.placeholder("hash")), isNull(agents.revokedAt)))
    .prepare(),
);

/** The agent this request's credential names now: null once it was revoked or rotated. */
export async function liveAgent(c: Context<AppEnv>) {
  const token = bearerToken(c.req.header("authorization"));
  if (!token?.startsWith(AGENT_CREDENTIAL_PREFIX)) throw unauthorized("An agent credential is required");
  const agent = await agentByCredential(c.var.db).get({ hash: sha256(token) });
  return agent ?? null;
}

/**
 * An agent's own credential: opaque, looked up by hash (revoking or rotating takes effect at once).
 * Authenticated calls refresh lastSeenAt (at most once a minute), which the /agents inventory shows.
 */
export const requireAgent: MiddlewareHandler<AppEnv> = async (c, next) => {
  const agent = await liveAgent(c);
  if (!agent) throw unauthorized("The agent credential is not valid");
  // Polls that end in 304 should stay reads: lastSeenAt moves at most once a minute.
  if (!agent.lastSeenAt || Date.now() - Date.parse(agent.lastSeenAt) > 60_000) {
    void inBackground(c, "agent last seen", () => c.var.db.update(agents).set({ lastSeenAt: nowIso() }).where(eq(agents.id, agent.id)));
  }
  c.set("principal", { kind: "agent", agentId: agent.id, agentKind: agent.kind, regionId: agent.regionId, gatewayId: agent.gatewayId });
  await next();
};

/** Function-level authorization: a route for one kind of agent refuses the other. */
export const agentOfKind =
  (kind: AgentPrincipal["agentKind"]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (agentOf(c).agentKind !== kind) throw forbidden(`Only ${kind} agents may call this`);
    await next();
  };
