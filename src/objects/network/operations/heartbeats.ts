import type { AgentNodeReport } from "../../../wire/agent-report";
import type { Heartbeat } from "../../../wire/heartbeat";
import type { HotStore } from "../hot/hot-store";
import type { HeldNetwork } from "../memory/held-network";
import type { PathReport } from "../nat/tracker";
import { pathPeersOf } from "./nat-paths";
import { type AdmittedPeerReport, admitPeerReport } from "./peer-reports";

/**
 * A device's heartbeat as the Worker hands it to the network's writer: the message as its route validated it
 * (wire/heartbeat.ts), unchanged, and who sent it when. The writer stores it in its hot state.
 */
export interface ReceivedHeartbeat {
  networkId: string;
  deviceId: string;
  nodeId: string;
  at: string;
  /** The address the heartbeat came from (docs/nat.md): a hint of the device's NAT's public address. */
  publicHost: string | null;
  heartbeat: Heartbeat;
}

/** A gateway daemon's report on one node (wire/agent-report.ts), unchanged, with when it came and whether the node is public. */
export interface ReceivedAgentReport {
  report: AgentNodeReport;
  at: string;
  /** The node names its own endpoint: only then does it see its peers' endpoints after NAT (docs/nat.md). */
  isPublic: boolean;
}

/** What a node said of itself in either message: the revision it runs and, from a device, its own endpoint. */
export const selfOfHeartbeat = ({ nodeId, heartbeat }: ReceivedHeartbeat) => ({
  nodeId,
  appliedRevision: heartbeat.appliedRevision,
  reportedEndpoint: heartbeat.endpoint ?? null,
});
export const selfOfAgentReport = ({ report }: ReceivedAgentReport) => ({
  nodeId: report.nodeId,
  appliedRevision: report.appliedRoutingRevision,
  reportedEndpoint: null,
});

const NO_BASE = { peerReportSeq: null, peerResyncFrom: null };

/**
 * Stores what a node said (its message's `peers` or `peerReport`) in the network's hot state (hot/hot-store.ts: the
 * writer's own SQLite, no D1 row) and answers its delta as admitted: null when it carried none or one that does not
 * build on the stored sequence (the answer then asks for a full report). A node removed since the Worker's access
 * read stores nothing.
 */
export function storeReport(
  hot: HotStore,
  held: HeldNetwork,
  self: ReturnType<typeof selfOfHeartbeat>,
  at: string,
  message: Pick<Heartbeat, "peers" | "peerReport">,
): AdmittedPeerReport | null {
  const { nodeId, appliedRevision, reportedEndpoint } = self;
  if (!held.nodes.has(nodeId)) return null;
  const delta = message.peerReport ? admitPeerReport(hot.node(nodeId) ?? NO_BASE, message.peerReport, at) : null;
  const peers = delta ? { delta } : message.peers && !message.peerReport ? { full: message.peers } : null;
  hot.recordReport(nodeId, at, { appliedRevision, reportedEndpoint }, peers, (key) => held.nodeWithKey(key) !== undefined);
  return delta;
}

/** What a heartbeat says of paths across NAT (operations/nat-paths.ts). */
export const heartbeatPathReport = (beat: ReceivedHeartbeat, delta: AdmittedPeerReport | null): PathReport => ({
  nodeId: beat.nodeId,
  appliedRevision: beat.heartbeat.appliedRevision,
  peers: pathPeersOf(beat.heartbeat.peerReport ? undefined : beat.heartbeat.peers, delta),
  ...(beat.heartbeat.localEndpoints ? { localEndpoints: beat.heartbeat.localEndpoints } : {}),
  publicHost: beat.publicHost,
});

/**
 * What an agent's report says of paths: only a public gateway sees its peers' endpoints after NAT, so only
 * its reports that carry some teach anything (docs/nat.md).
 */
export function agentPathReport({ report, isPublic }: ReceivedAgentReport, delta: AdmittedPeerReport | null): PathReport | null {
  const peers = pathPeersOf(report.peerReport ? undefined : report.peers, delta);
  if (!isPublic || !peers.some((peer) => peer.endpoint)) return null;
  return { nodeId: report.nodeId, appliedRevision: report.appliedRoutingRevision, fromAgent: true, peers };
}
