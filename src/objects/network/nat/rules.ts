import type { Config } from "../../../lib/env";

/** The timings of paths across NAT (docs/nat.md), from the Worker's vars. */
export interface NatRules {
  directTimeoutMs: number;
  relayHoldSeconds: number;
  candidateTtlMs: number;
}

export const natRules = (
  config: Pick<Config, "NAT_DIRECT_TIMEOUT_SECONDS" | "NAT_RELAY_HOLD_SECONDS" | "NAT_CANDIDATE_TTL_SECONDS">,
): NatRules => ({
  directTimeoutMs: config.NAT_DIRECT_TIMEOUT_SECONDS * 1000,
  relayHoldSeconds: config.NAT_RELAY_HOLD_SECONDS,
  candidateTtlMs: config.NAT_CANDIDATE_TTL_SECONDS * 1000,
});
