import type { Db } from "../db/client";
import { loadRoutingState } from "../durable-objects/operations/network-state";
import { notFound } from "../lib/errors";
import { toRoutingNetwork, toRoutingNode, toRoutingPolicy } from "./network-routing";
import { buildNodeConfig, type NodeConfig } from "./routing";

/** One batch of three reads whatever the network's size, then pure rendering (see docs/routing.md). */
export async function loadNodeConfig(db: Db, networkId: string, nodeId: string): Promise<NodeConfig> {
  const state = await loadRoutingState(db, networkId);
  // Deleted between the caller's access check and this read: answer as if it never existed.
  if (!state.nodes.some((row) => row.id === nodeId)) throw notFound("Node");
  return buildNodeConfig(toRoutingNetwork(state.network), state.nodes.map(toRoutingNode), state.policies.map(toRoutingPolicy), nodeId);
}
