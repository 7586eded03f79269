import type { Db } from "../../db/client";
import { getConfig, type Env } from "../../lib/env";

/** ROUTING_POLICY_MAX_HOPS from the environment (spec part 8). */
export async function routingPolicyMaxHops(env: Env, _db: Db): Promise<number> {
  return getConfig(env).ROUTING_POLICY_MAX_HOPS;
}
