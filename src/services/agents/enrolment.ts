import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { agentEnrolmentTokens, agents, type AgentKind } from "../../db/schema";
import { domainError, unauthorized } from "../../lib/errors";
import { newId, nowIso, secondsFromNow } from "../../lib/ids";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import { randomToken, sha256 } from "../auth/tokens";
import { gatewayExists } from "../inventory/gateways";
import { regionExists } from "../inventory/regions";

export const AGENT_ENROLMENT_PREFIX = "aet_";
/** Agent credentials are opaque; the prefix tells them from user, device and enrolment tokens. */
export const AGENT_CREDENTIAL_PREFIX = "agc_";

export const newAgentCredential = () => `${AGENT_CREDENTIAL_PREFIX}${randomToken()}`;

export interface EnrolmentTokenRequest {
  kind: AgentKind;
  regionId?: string;
  gatewayId?: string;
  expiresInSeconds: number;
}

/** A single-use token for one agent of a region (gateway-manager) or a gateway (gateway-daemon); shown once. */
export async function issueEnrolmentToken(db: Db, request: EnrolmentTokenRequest, createdBy: string, audit: AuditContext) {
  const exists = request.regionId ? await regionExists(db, request.regionId) : await gatewayExists(db, request.gatewayId!);
  if (!exists) {
    throw domainError(
      request.regionId ? `regionId ${request.regionId} is not a region` : `gatewayId ${request.gatewayId} is not a gateway`,
    );
  }
  const token = `${AGENT_ENROLMENT_PREFIX}${randomToken()}`;
  const row = {
    id: newId("aet"),
    kind: request.kind,
    regionId: request.regionId ?? null,
    gatewayId: request.gatewayId ?? null,
    tokenHash: sha256(token),
    createdBy,
    expiresAt: secondsFromNow(request.expiresInSeconds),
    usedAt: null,
    usedByAgentId: null,
    createdAt: nowIso(),
  };
  await batchWithAudit(db, [db.insert(agentEnrolmentTokens).values(row)], audit, platformEvent("agent-enrolment-token.issued", row.id));
  return { id: row.id, kind: row.kind, regionId: row.regionId, gatewayId: row.gatewayId, expiresAt: row.expiresAt, token };
}

/**
 * Trades a single-use enrolment token for an agent and its credential. The token is consumed first by a
 * conditional UPDATE, so two agents racing with one token cannot both enrol; the agent and its audit
 * row then commit together.
 */
export async function enrolAgent(db: Db, token: string, details: { name: string; version: string }, audit: AuditContext) {
  const now = nowIso();
  const agentId = newId("agt");
  const [grant] = await db
    .update(agentEnrolmentTokens)
    .set({ usedAt: now, usedByAgentId: agentId })
    .where(
      and(eq(agentEnrolmentTokens.tokenHash, sha256(token)), isNull(agentEnrolmentTokens.usedAt), gt(agentEnrolmentTokens.expiresAt, now)),
    )
    .returning();
  if (!grant) throw unauthorized("The enrolment token is not valid (unknown, expired or already used)");
  const credential = newAgentCredential();
  const agent = {
    id: agentId,
    kind: grant.kind as AgentKind,
    name: details.name,
    regionId: grant.regionId,
    gatewayId: grant.gatewayId,
    version: details.version,
    credentialHash: sha256(credential),
    revokedAt: null,
    lastSeenAt: now,
    createdAt: now,
    updatedAt: now,
  };
  await batchWithAudit(db, [db.insert(agents).values(agent)], audit, platformEvent("agent.enrolled", agent.id));
  return { agent, credential };
}
