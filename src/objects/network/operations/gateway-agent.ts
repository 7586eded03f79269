import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { nodes } from "../../../db/schema";
import { conflict, notFound } from "../../../lib/errors";
import { nowIso } from "../../../lib/ids";
import { agentServesGateway } from "../../../services/live-authority";
import { commit, type WriterContext } from "../commit";
import type { NodeRow } from "../../../db/rows";
import { bumpRoutingRevision } from "../state";

/**
 * The node's row read from D1, not from the writer's memory: the agent's answer carries the columns its reports
 * write (applied revisions, last seen, apply error), which the held copy has as loaded.
 */
const freshNode = (db: Db, networkId: string, nodeId: string) =>
  db
    .select()
    .from(nodes)
    .where(and(eq(nodes.id, nodeId), eq(nodes.networkId, networkId)))
    .get();

/** The calling gateway daemon, as its credential named it when the request was authenticated. */
export interface GatewayAgent {
  agentId: string;
  gatewayId: string;
}

/** What a daemon says about a node it runs: the public half of the key pair it generated there, and whether it serves DNS. */
export interface AgentNodeState {
  publicKey: string;
  servesDns: boolean;
}

/**
 * A gateway daemon registers the key of a node it runs (and whether it serves the zone). Authorised in the
 * write itself: the node is read in the writer's queue (no other node change can pass it) and must be a
 * gateway node of the agent's gateway, else "not found" (it says nothing about other gateways' nodes); the
 * agent's credential is re-checked by the UPDATE's own condition, so a credential revoked meanwhile changes
 * nothing. The same state again is no change: no revision bump, no audit row. A change bumps the routing
 * revision (every peer of the node sees the key; DNS servers may change in every config).
 */
export async function applyAgentNodeState(
  ctx: WriterContext,
  networkId: string,
  nodeId: string,
  agent: GatewayAgent,
  wanted: AgentNodeState,
): Promise<NodeRow> {
  const { db } = ctx;
  const held = await ctx.memory.forWrite(db, networkId);
  const current = await freshNode(db, networkId, nodeId);
  if (!current?.isGateway || current.gatewayId !== agent.gatewayId) throw notFound("Node");
  if (current.publicKey === wanted.publicKey && current.servesDns === wanted.servesDns) return current;
  const keyed = held.nodeWithKey(wanted.publicKey);
  if (keyed && keyed.id !== nodeId) throw conflict(`Node ${keyed.id} already uses this public key in this network`);

  const next: NodeRow = { ...current, ...wanted, revision: held.network.routingRevision + 1, updatedAt: nowIso() };
  const authorised = agentServesGateway(agent.agentId, agent.gatewayId);
  // The bump and the audit row follow the UPDATE: the node holds the new revision only if it ran.
  const updated = sql`exists (select 1 from nodes where id = ${nodeId} and revision = ${next.revision})`;
  const written = (results: unknown[]) => (results[0] as unknown[]).length > 0;
  const results = await commit(
    ctx,
    [
      db
        .update(nodes)
        .set({ publicKey: next.publicKey, servesDns: next.servesDns, revision: next.revision, updatedAt: next.updatedAt })
        .where(and(eq(nodes.id, nodeId), eq(nodes.isGateway, true), eq(nodes.gatewayId, agent.gatewayId), authorised))
        .returning({ id: nodes.id }),
      bumpRoutingRevision(db, networkId, updated),
    ],
    { action: "node.updated", resourceId: nodeId, networkId, groupId: held.network.groupId },
    { onlyIf: updated, happened: written },
  );
  if (!written(results)) throw notFound("Node");
  held.putNode(next);
  held.bumped({ routing: true });
  return next;
}
