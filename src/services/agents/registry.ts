import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { agents, type AgentKind } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { afterCursor } from "../../lib/pagination";
import type { AuditContext } from "../audit/audit-trail";
import { batchWithAudit, platformEvent } from "../audit/audited-batch";
import { sha256 } from "../auth/tokens";
import { newAgentCredential } from "./enrolment";

export type Agent = typeof agents.$inferSelect;
export { AGENT_KINDS } from "../../db/schema";

/** One page's rows plus one, for toPage to tell whether another page follows. */
export const listAgents = (db: Db, query: { limit: number; cursor?: string; kind?: AgentKind; status?: "active" | "revoked" }) =>
  db
    .select()
    .from(agents)
    .where(
      and(
        afterCursor(agents, query.cursor),
        query.kind ? eq(agents.kind, query.kind) : undefined,
        query.status === "revoked" ? isNotNull(agents.revokedAt) : query.status === "active" ? isNull(agents.revokedAt) : undefined,
      ),
    )
    .orderBy(asc(agents.createdAt), asc(agents.id))
    .limit(query.limit + 1)
    .all();

export async function findAgent(db: Db, id: string): Promise<Agent> {
  const agent = await db.select().from(agents).where(eq(agents.id, id)).get();
  if (!agent) throw notFound("Agent");
  return agent;
}

/** Revoking again keeps the first revocation time (and is recorded again). */
export async function revokeAgent(db: Db, id: string, audit: AuditContext): Promise<Agent> {
  const agent = await findAgent(db, id);
  const revokedAt = agent.revokedAt ?? nowIso();
  await batchWithAudit(
    db,
    [db.update(agents).set({ revokedAt, updatedAt: nowIso() }).where(eq(agents.id, agent.id))],
    audit,
    platformEvent("agent.revoked", agent.id),
  );
  return { ...agent, revokedAt };
}

export async function reportVersion(db: Db, id: string, version: string, audit: AuditContext): Promise<Agent> {
  const next = { ...(await findAgent(db, id)), version, updatedAt: nowIso() };
  await batchWithAudit(
    db,
    [db.update(agents).set({ version: next.version, updatedAt: next.updatedAt }).where(eq(agents.id, next.id))],
    audit,
    platformEvent("agent.updated", next.id),
  );
  return next;
}

/** The new credential is returned once; the old one stops working when this commits. */
export async function rotateCredential(db: Db, id: string, audit: AuditContext) {
  const credential = newAgentCredential();
  const agent = { ...(await findAgent(db, id)), credentialHash: sha256(credential), updatedAt: nowIso() };
  await batchWithAudit(
    db,
    [db.update(agents).set({ credentialHash: agent.credentialHash, updatedAt: agent.updatedAt }).where(eq(agents.id, agent.id))],
    audit,
    platformEvent("agent.credential-rotated", agent.id),
  );
  return { agent, credential };
}
