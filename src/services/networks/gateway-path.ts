import type { GatewayStatus } from "../../db/schema";

export interface PathNode {
  id: string;
  isGateway: boolean;
  gatewayId: string | null;
}

export interface GatewayEligibility {
  statuses: GatewayStatus[];
  /** null: gateways of any region. */
  regionIds: string[] | null;
}

export interface PathContext {
  maxHops: number;
  nodesById: Map<string, PathNode>;
  gatewaysById: Map<string, { status: GatewayStatus; regionId: string }>;
  eligibility: GatewayEligibility;
}

/**
 * Spec part 4 rule 2 with DESIGN's reading: a non-empty ordered list without repeats, at most maxHops long,
 * every hop a node of this network holding the gateway role whose inventory gateway exists and is eligible
 * under the platform's gateway eligibility policy (status and region; admin settings). Returns the first
 * violation as a sentence naming the hop, or null.
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
    const gateway = context.gatewaysById.get(node.gatewayId);
    if (!gateway) return `${hop} references gateway ${node.gatewayId}, which is not in the inventory`;
    if (!context.eligibility.statuses.includes(gateway.status)) {
      return `${hop} runs on gateway ${node.gatewayId}, which is ${gateway.status} and not eligible`;
    }
    const regions = context.eligibility.regionIds;
    if (regions && !regions.includes(gateway.regionId)) {
      return `${hop} runs on gateway ${node.gatewayId}, whose region ${gateway.regionId} is not eligible`;
    }
  }
  return null;
}
