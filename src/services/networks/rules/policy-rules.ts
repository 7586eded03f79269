import type { Db } from "../../../db/client";
import type { Env } from "../../../lib/env";
import { loadEffectiveSettings } from "../../settings/settings";

/** The hop limit and gateway eligibility in force: admin settings over ROUTING_POLICY_MAX_HOPS. */
export async function policyRules(env: Env, db: Db) {
  const settings = await loadEffectiveSettings(env, db);
  return { maxHops: settings.routingPolicyMaxHops, eligibility: settings.gatewayEligibility };
}
