import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { agentEnrolmentTokens, agents, type AgentKind } from "../../db/schema";
import { unauthorized } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { randomToken, sha256 } from "../auth/tokens";

export const AGENT_ENROLMENT_PREFIX = "aet_";
/** Agent credentials are opaque; the prefix tells them from user, device and enrolment tokens. */
export const AGENT_CREDENTIAL_PREFIX = "agc_";

export const newAgentCredential = () => `${AGENT_CREDENTIAL_PREFIX}${randomToken()}`;

/**
 * Trades a single-use enrolment token for an agent and its credential. The token is consumed by a
 * conditional UPDATE, so two agents racing with one token cannot both enrol.
 */
export async function enrolAgent(db: Db, token: string, details: { name: string; version: string }) {
  const now = nowIso();
  const agentId = newId("agt");
  const [grant] = await db.update(agentEnrolmentTokens).set({ usedAt: now, usedByAgentId: agentId })
    .where(and(eq(agentEnrolmentTokens.tokenHash, sha256(token)), isNull(agentEnrolmentTokens.usedAt), gt(agentEnrolmentTokens.expiresAt, now)))
    .returning();
  if (!grant) throw unauthorized("The enrolment token is not valid (unknown, expired or already used)");
  const credential = newAgentCredential();
  const agent = {
    id: agentId, kind: grant.kind as AgentKind, name: details.name, regionId: grant.regionId, gatewayId: grant.gatewayId,
    version: details.version, credentialHash: sha256(credential), revokedAt: null, lastSeenAt: now, createdAt: now, updatedAt: now,
  };
  await db.insert(agents).values(agent);
  return { agent, credential };
}
