import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devices, type GroupRole, nodes } from "../../../db/schema";
import { sanitisedDisplayText } from "../../../lib/display-name";
import type { Env } from "../../../lib/env";
import type { UserPrincipal } from "../../../lib/types";
import { unwrap } from "../../../lib/write-result";
import { seesNodeDetail } from "../device-node-privacy";
import type { NetworkRow, NodeRow } from "../../../db/rows";
import { networkWriter } from "../../../objects/network/client";

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

/** Who reads the status: the lists name only nodes whose detail that reader may see. */
export interface StatusReader {
  auth: UserPrincipal;
  role: GroupRole;
}

/**
 * One read of what the network's nodes report, against the network the caller's access check read. The
 * revisions and inSync count every node; the lists (lagging, unreported, failing) leave out another
 * member's device node, whose reports are its owner's (device-node-privacy.ts).
 */
export async function loadRuntimeStatus(
  env: Env,
  db: Db,
  network: Pick<NetworkRow, "id" | "routingRevision" | "dnsRevision">,
  reader: StatusReader,
) {
  const [rows, reports] = await Promise.all([
    nodeRows(db, network.id),
    unwrap(networkWriter(env, network.id).readAppliedRevisions(network.id)),
  ]);
  // What nodes applied is what they last reported, which their network's object holds (objects/network/hot/), or
  // the desired revision when their config then is the one they need now (objects/network/views/config-currency.ts).
  const applied = new Map(reports.map((report) => [report.nodeId, report.appliedRevision]));
  const reported = rows.map((row) => (applied.has(row.id) ? { ...row, appliedRoutingRevision: applied.get(row.id)! } : row));
  const hidden = new Set(
    reported.filter((node) => !seesNodeDetail(reader.auth, reader.role, node, node.deviceOwnerId)).map((node) => node.id),
  );
  const named = (ids: string[]) => ids.filter((id) => !hidden.has(id));
  const routing = routingStatus(network, reported);
  const dns = dnsStatus(network, reported);
  return {
    networkId: network.id,
    routing: {
      ...routing,
      lagging: named(routing.lagging),
      unreported: named(routing.unreported),
      failing: failingNodes(reported).filter((entry) => !hidden.has(entry.nodeId)),
    },
    dns: { ...dns, lagging: named(dns.lagging) },
  };
}

const nodeRows = (db: Db, networkId: string) =>
  db
    .select({
      id: nodes.id,
      deviceId: nodes.deviceId,
      deviceOwnerId: devices.userId,
      isGateway: nodes.isGateway,
      appliedRoutingRevision: nodes.appliedRoutingRevision,
      appliedDnsRevision: nodes.appliedDnsRevision,
      applyError: nodes.applyError,
    })
    .from(nodes)
    .leftJoin(devices, eq(devices.nodeId, nodes.id))
    .where(eq(nodes.networkId, networkId))
    .all();
