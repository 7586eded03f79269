import type { HotStore } from "../hot/hot-store";
import type { HeldNetwork } from "../memory/held-network";
import { type PathReport, pathPeersOf } from "./nat-paths";
import type { TunnelObservation } from "./observations";
import { type AdmittedDelta, admitPeerDelta, type PeerDelta } from "./peer-reports";

/** What a node says of itself and its tunnels: a device's heartbeat, or a gateway agent's report on one node. */
export interface NodeReport {
  nodeId: string;
  appliedRevision: number | null;
  /** The endpoint a device reports for itself (null from agents). */
  endpoint: string | null;
  /** The old full form: every peer, replacing the node's rows. */
  peers?: TunnelObservation[] | undefined;
  /** The delta form, admitted in the writer against the sequence its hot state holds (operations/peer-reports.ts). */
  peerReport?: PeerDelta;
  at: string;
}

/** A heartbeat (device-heartbeat.ts) as it reaches the network's writer, which stores it in its hot state. */
export interface ReportedHeartbeat extends NodeReport {
  networkId: string;
  deviceId: string;
  /** Its LAN endpoints, and the address the heartbeat came from (docs/nat.md): the writer stores them on change. */
  localEndpoints?: string[];
  publicHost?: string | null;
}

const NO_BASE = { peerReportSeq: null, peerResyncFrom: null };

/**
 * Stores a report in the network's hot state (hot/hot-store.ts: the writer's own SQLite, no D1 row) and answers
 * its delta as admitted: null when it carried none or one that does not build on the stored sequence (the
 * answer then asks for a full report). A node removed since the Worker's access read stores nothing.
 */
export function storeReport(hot: HotStore, held: HeldNetwork, beat: NodeReport): AdmittedDelta | null {
  if (!held.nodes.has(beat.nodeId)) return null;
  const delta = beat.peerReport ? admitPeerDelta(hot.node(beat.nodeId) ?? NO_BASE, beat.peerReport, beat.at) : null;
  const peers = delta ? { delta } : beat.peers && !beat.peerReport ? { full: beat.peers } : null;
  hot.recordReport(
    beat.nodeId,
    beat.at,
    { appliedRevision: beat.appliedRevision, reportedEndpoint: beat.endpoint },
    peers,
    (key) => held.nodeWithKey(key) !== undefined,
  );
  return delta;
}

/** What a heartbeat says of paths across NAT (operations/nat-paths.ts). */
export const heartbeatPathReport = (beat: ReportedHeartbeat, delta: AdmittedDelta | null): PathReport => ({
  nodeId: beat.nodeId,
  appliedRevision: beat.appliedRevision,
  peers: pathPeersOf(beat.peerReport ? undefined : beat.peers, delta),
  ...(beat.localEndpoints ? { localEndpoints: beat.localEndpoints } : {}),
  publicHost: beat.publicHost ?? null,
});

/** A gateway agent's report on one node, and whether that node is public (it names an endpoint). */
export interface AgentNodeReport extends NodeReport {
  isPublic: boolean;
}

/**
 * What an agent's report says of paths: only a public gateway sees its peers' endpoints after NAT, so only
 * its reports that carry some teach anything (docs/nat.md).
 */
export function agentPathReport(report: AgentNodeReport, delta: AdmittedDelta | null): PathReport | null {
  const peers = pathPeersOf(report.peerReport ? undefined : report.peers, delta);
  if (!report.isPublic || !peers.some((peer) => peer.endpoint)) return null;
  return { nodeId: report.nodeId, appliedRevision: report.appliedRevision, fromAgent: true, peers };
}
