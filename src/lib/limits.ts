/** Per-network caps: they keep every artifact render and writer transaction bounded (README, "Limits"). */
export const LIMITS = {
  nodesPerNetwork: 10_000,
  policiesPerNetwork: 500,
  dnsRecordsPerNetwork: 10_000,
  /** Schema cap on gatewayPath length; the routing hop maximum (ROUTING_POLICY_MAX_HOPS) is checked after it. */
  gatewayPathEntries: 32,
} as const;
