import type { dnsRecords, gatewayPools, networks, nodes, relayedPairs, routingPolicies } from "./schema";

/** The network domain's rows as D1 holds them: what the writer loads, the routing core's adapters read, and routes present. */
export type NetworkRow = typeof networks.$inferSelect;
export type NodeRow = typeof nodes.$inferSelect;
export type PolicyRow = typeof routingPolicies.$inferSelect;
export type DnsRecordRow = typeof dnsRecords.$inferSelect;
export type PoolRow = typeof gatewayPools.$inferSelect;
export type RelayedPairRow = typeof relayedPairs.$inferSelect;
