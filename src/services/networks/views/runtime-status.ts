import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { nodes } from "../../../db/schema";
import { sanitisedDisplayText } from "../../../lib/display-name";
import type { NetworkRow, NodeRow } from "../state";

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

type DnsReported = Pick<NodeRow, "id" | "isGateway" | "appliedDnsRevision">;

/**
 * DNS is served by the network's gateway nodes (their daemons report the revision they serve).
 * Applied is the oldest any gateway serves; null while a gateway has never reported or none exists.
 */
export function dnsStatus(network: Pick<NetworkRow, "dnsRevision">, nodes: DnsReported[]) {
  const servers = nodes.filter((node) => node.isGateway);
  const desiredRevision = network.dnsRevision;
  const reported = servers.map((node) => node.appliedDnsRevision);
  const appliedRevision = servers.length === 0 || reported.includes(null) ? null : Math.min(...(reported as number[]));
  const lagging = servers
    .filter((node) => node.appliedDnsRevision !== null && node.appliedDnsRevision < desiredRevision)
    .map((node) => node.id);
  return { desiredRevision, appliedRevision, inSync: appliedRevision === desiredRevision, lagging };
}

/** Nodes whose agents report a state they could not apply (they run the previous one), in node id order. */
export const failingNodes = (nodes: Pick<NodeRow, "id" | "applyError">[]) =>
  nodes
    .filter((node) => node.applyError !== null)
    // Reports store the text clean (lib/display-name.ts); rows stored before that rule are cleaned here.
    .map((node) => ({ nodeId: node.id, error: sanitisedDisplayText(node.applyError!) }))
    .sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));

/** One read of what the network's nodes report, against the network the caller's access check read. */
export async function loadRuntimeStatus(db: Db, network: Pick<NetworkRow, "id" | "routingRevision" | "dnsRevision">) {
  const reported = await db
    .select({
      id: nodes.id,
      isGateway: nodes.isGateway,
      appliedRoutingRevision: nodes.appliedRoutingRevision,
      appliedDnsRevision: nodes.appliedDnsRevision,
      applyError: nodes.applyError,
    })
    .from(nodes)
    .where(eq(nodes.networkId, network.id))
    .all();
  return {
    networkId: network.id,
    routing: { ...routingStatus(network, reported), failing: failingNodes(reported) },
    dns: dnsStatus(network, reported),
  };
}
