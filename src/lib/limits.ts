/** Per-network caps: they keep every artifact render and writer transaction bounded (README, "Limits"). */
export const LIMITS = {
  nodesPerNetwork: 10_000,
  policiesPerNetwork: 500,
  dnsRecordsPerNetwork: 10_000,
  /** Schema cap on gatewayPath length; the routing hop maximum (ROUTING_POLICY_MAX_HOPS) is checked after it. */
  gatewayPathEntries: 32,
  /** An access policy document (docs/access.md): rules, the tests it carries, selectors per side, ports per rule. */
  accessRules: 500,
  accessTests: 200,
  accessSelectorsPerSide: 50,
  accessPortsPerRule: 50,
  /** Tags on one node or enrolment key. */
  tagsPerNode: 16,
} as const;

/** Pool limits (README, "Limits"; docs/routing.md): members a pool, pools a network. */
export const POOL_LIMITS = { membersPerPool: 8, poolsPerNetwork: 100 } as const;
