import type { Db } from "../../../db/client";
import { loadRoutingState, toRoutingNetwork, toRoutingNode, toRoutingPolicy } from "../state";
import { notFound } from "../../../lib/errors";
import { buildTopology, configFor, type NodeConfig } from "../routing";

/**
 * Configs of nodes of one network from one batch of three reads whatever the network's size, then pure
 * rendering (see docs/routing.md). Nodes no longer in the network are left out.
 */
export async function loadNodeConfigs(db: Db, networkId: string, nodeIds: string[]): Promise<Map<string, NodeConfig>> {
  const state = await loadRoutingState(db, networkId);
  // One topology for every node asked for: building it is the part that grows with the network.
  const topology = buildTopology(toRoutingNetwork(state.network), state.nodes.map(toRoutingNode), state.policies.map(toRoutingPolicy));
  const present = new Set(state.nodes.map((row) => row.id));
  return new Map(nodeIds.filter((id) => present.has(id)).map((id) => [id, configFor(topology, id)]));
}

export async function loadNodeConfig(db: Db, networkId: string, nodeId: string): Promise<NodeConfig> {
  const config = (await loadNodeConfigs(db, networkId, [nodeId])).get(nodeId);
  // Deleted between the caller's access check and this read: answer as if it never existed.
  if (!config) throw notFound("Node");
  return config;
}
