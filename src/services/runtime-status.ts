import type { NetworkRow, NodeRow } from "../durable-objects/operations/network-state";

type Reported = Pick<NodeRow, "id" | "appliedRoutingRevision">;

/**
 * Desired comes from the network's revision counters; applied from what nodes report. The network's
 * applied revision is the oldest any node runs, and null while some node has never reported, so
 * `inSync` is only true when every node is known to run the desired revision.
 */
export function routingStatus(network: Pick<NetworkRow, "routingRevision">, nodes: Reported[]) {
  const desiredRevision = network.routingRevision;
  const unreported = nodes.filter((node) => node.appliedRoutingRevision === null).map((node) => node.id);
  const lagging = nodes
    .filter((node) => node.appliedRoutingRevision !== null && node.appliedRoutingRevision < desiredRevision)
    .map((node) => node.id);
  const applied = nodes.map((node) => node.appliedRoutingRevision);
  const appliedRevision = nodes.length === 0 || unreported.length > 0 ? null : Math.min(...(applied as number[]));
  return { desiredRevision, appliedRevision, inSync: appliedRevision === desiredRevision, lagging, unreported };
}

/** DNS is applied by the gateways that serve it; until one reports, applied is unknown. */
export function dnsStatus(network: Pick<NetworkRow, "dnsRevision">, appliedRevision: number | null = null) {
  return { desiredRevision: network.dnsRevision, appliedRevision, inSync: appliedRevision === network.dnsRevision, lagging: [] as string[] };
}
