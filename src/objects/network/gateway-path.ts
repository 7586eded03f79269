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

/** A gateway pool as a path names it: one hop, any of whose members may carry the traffic. */
export interface PathPool {
  id: string;
  members: readonly { nodeId: string }[];
}

export interface PathContext {
  maxHops: number;
  nodesById: Map<string, PathNode>;
  /** `assigned`: the gateway is assigned to the network's group (directly or through its region). */
  gatewaysById: Map<string, { status: GatewayStatus; regionId: string; assigned: boolean }>;
  eligibility: GatewayEligibility;
  /** The network's gateway pools (absent: none); a hop may name one. */
  poolsById?: ReadonlyMap<string, PathPool>;
}

/**
 * Why one gateway node cannot be a hop, as the end of a sentence that starts with `subject`; null when it can:
 * a node of this network holding the gateway role whose inventory gateway exists, is assigned to the
 * network's group (gateway_assignments) and is eligible.
 * Every member of a pool must pass it too, whether the pool is written or named in a path.
 */
export function gatewayNodeProblem(subject: string, nodeId: string, context: Omit<PathContext, "maxHops">): string | null {
  const node = context.nodesById.get(nodeId);
  if (!node) return `${subject} is not a node of this network`;
  if (!node.isGateway || !node.gatewayId) return `${subject} does not hold the gateway role`;
  const gateway = context.gatewaysById.get(node.gatewayId);
  if (!gateway) return `${subject} references gateway ${node.gatewayId}, which is not in the inventory`;
  if (!gateway.assigned) return `${subject} runs on gateway ${node.gatewayId}, which is not assigned to this network's group`;
  if (!context.eligibility.statuses.includes(gateway.status)) {
    return `${subject} runs on gateway ${node.gatewayId}, which is ${gateway.status} and not eligible`;
  }
  const regions = context.eligibility.regionIds;
  if (regions && !regions.includes(gateway.regionId)) {
    return `${subject} runs on gateway ${node.gatewayId}, whose region ${gateway.regionId} is not eligible`;
  }
  return null;
}

/**
 * Spec part 4 rule 2 with DESIGN's reading: a non-empty ordered list without repeats, at most maxHops long,
 * every hop a node of this network holding the gateway role whose inventory gateway exists and is eligible
 * under the platform's gateway eligibility policy (status and region; admin settings). A hop may instead
 * name a gateway pool of the network: then every member passes the same rules, no member is named directly,
 * and no node appears in two hops. Returns the first violation as a sentence naming the hop, or null.
 */
export function checkGatewayPath(path: string[], context: PathContext): string | null {
  if (path.length === 0) return "gatewayPath must name at least one gateway node";
  if (path.length > context.maxHops) {
    return `gatewayPath has ${path.length} hops; at most ${context.maxHops} are allowed (ROUTING_POLICY_MAX_HOPS)`;
  }
  const pools = context.poolsById ?? new Map<string, PathPool>();
  const poolOfNode = new Map<string, string>();
  for (const pool of pools.values()) for (const member of pool.members) poolOfNode.set(member.nodeId, pool.id);
  const seen = new Set<string>();
  const nodesSeen = new Set<string>();
  for (const [index, hopId] of path.entries()) {
    const hop = `gatewayPath.${index} (${hopId})`;
    if (seen.has(hopId)) return `${hop} repeats an earlier hop`;
    seen.add(hopId);
    const pool = pools.get(hopId);
    if (pool) {
      for (const { nodeId } of pool.members) {
        const problem = gatewayNodeProblem(`${hop} member ${nodeId}`, nodeId, context);
        if (problem) return problem;
        if (nodesSeen.has(nodeId)) return `${hop} member ${nodeId} is already in an earlier hop`;
        nodesSeen.add(nodeId);
      }
      continue;
    }
    if (!context.nodesById.has(hopId) && hopId.startsWith("gpl_")) return `${hop} is not a gateway pool of this network`;
    const inPool = poolOfNode.get(hopId);
    if (inPool) return `${hop}: node ${hopId} is a member of pool ${inPool}; name the pool`;
    const problem = gatewayNodeProblem(hop, hopId, context);
    if (problem) return problem;
    if (nodesSeen.has(hopId)) return `${hop} is already in an earlier hop`;
    nodesSeen.add(hopId);
  }
  return null;
}
