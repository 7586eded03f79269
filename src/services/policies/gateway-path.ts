import type { GatewayStatus } from "../../db/schema";

export interface PathNode {
  id: string;
  isGateway: boolean;
  gatewayId: string | null;
}

export interface PathContext {
  maxHops: number;
  nodesById: Map<string, PathNode>;
  gatewayStatusById: Map<string, GatewayStatus>;
}

/**
 * Spec part 4 rule 2 with DESIGN's reading: a non-empty ordered list without repeats, at most maxHops long,
 * every hop a node of this network holding the gateway role whose inventory gateway exists and is eligible
 * (active). Returns the first violation as a sentence naming the hop, or null.
 */
export function checkGatewayPath(path: string[], context: PathContext): string | null {
  if (path.length === 0) return "gatewayPath must name at least one gateway node";
  if (path.length > context.maxHops) {
    return `gatewayPath has ${path.length} hops; at most ${context.maxHops} are allowed (ROUTING_POLICY_MAX_HOPS)`;
  }
  const seen = new Set<string>();
  for (const [index, nodeId] of path.entries()) {
    const hop = `gatewayPath.${index} (${nodeId})`;
    if (seen.has(nodeId)) return `${hop} repeats an earlier hop`;
    seen.add(nodeId);
    const node = context.nodesById.get(nodeId);
    if (!node) return `${hop} is not a node of this network`;
    if (!node.isGateway || !node.gatewayId) return `${hop} does not hold the gateway role`;
    const status = context.gatewayStatusById.get(node.gatewayId);
    if (!status) return `${hop} references gateway ${node.gatewayId}, which is not in the inventory`;
    if (status !== "active") return `${hop} runs on gateway ${node.gatewayId}, which is ${status} and not eligible`;
  }
  return null;
}
