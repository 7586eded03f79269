import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { nodes } from "../../db/schema";
import type { Env } from "../../lib/env";
import { notFound } from "../../lib/errors";
import { unwrap } from "../../lib/write-result";
import type { AuditContext } from "../audit/audit-trail";
import type { AgentNodeState, GatewayAgent } from "../../objects/network/client";
import { networkWriter } from "../../objects/network/client";

/**
 * A gateway daemon's PUT of one node's key and servesDns. This only finds the node's network (whose
 * writer runs the change); whether the node is the agent's to change is decided in the writer's write
 * (objects/network/operations/gateway-agent.ts), so a node that moves to another gateway meanwhile is refused there.
 */
export async function putAgentNodeState(
  env: Env,
  db: Db,
  agent: GatewayAgent,
  nodeId: string,
  wanted: AgentNodeState,
  audit: AuditContext,
) {
  const node = await db.select({ networkId: nodes.networkId }).from(nodes).where(eq(nodes.id, nodeId)).get();
  if (!node) throw notFound("Node");
  return unwrap(networkWriter(env, node.networkId).applyAgentNodeState(node.networkId, nodeId, agent, wanted, audit));
}
