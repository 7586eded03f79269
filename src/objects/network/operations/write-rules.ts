import type { WriterContext } from "../commit";
import type { GatewayEligibility } from "../gateway-path";

/** 400 for a broken rule (naming the hop), 409 when the policy cannot coexist with the others. */
export interface PolicyRules {
  maxHops: number;
  eligibility: GatewayEligibility;
}

/** The hop limit and gateway eligibility in force for a policy or pool write: admin settings over ROUTING_POLICY_MAX_HOPS. */
export async function rulesInForce(ctx: WriterContext): Promise<PolicyRules> {
  const settings = await ctx.directory.settings();
  return { maxHops: settings.routingPolicyMaxHops, eligibility: settings.gatewayEligibility };
}
