/** The routing core: pure functions from network, nodes and policies to per-node WireGuard configs. */
export { findRoutingConflicts } from "./conflicts";
export { applyConfigDelta, diffConfigs } from "./config-delta";
export { checkDestination } from "./destination";
export { routingIntentFor } from "./intent";
export { buildNodeConfig, configCoreFor, configFor } from "./node-config";
export { buildTopology, isSourceOf, type Topology } from "./topology";
export type * from "./types";
export { PRIVATE_KEY_PLACEHOLDER, renderWgQuick } from "./wg-quick";
