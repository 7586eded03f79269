// What each member of the fleet sends, built by wgo's own code (cli/peer-report.mjs, as `wgo heartbeat` and the
// gateway agent's reporter use it): a device's heartbeat is { appliedRevision, localEndpoints, peerReport } with a
// delta peer report on the last seq the server answered; a gateway agent's report is one node entry as
// cli/gateway/reporter.mjs builds it (bench/failover-reports.ts reportEntry). Every tunnel of a fleet network is in
// use (50 devices and a gateway: 50 peers each, ACTIVE_TUNNELS), and each beat its counters have moved, so a
// steady-state beat reports all 50 as changed. Pure: the HTTP goes through the `send` a caller passes.
import { reportEntry } from "./failover-reports.ts";

const load = (name: string): Promise<any> => import(/* @vite-ignore */ `../cli/${name}`);
const peerReport = () => load("peer-report.mjs");

/** One node of a fleet network as its peers see it: its key and the address its NAT shows them. */
export interface FleetPeer {
  publicKey: string;
  /** `ip:port` as WireGuard on a peer holds it (unique per network and node: a NAT's mapping). */
  endpoint: string;
}

/** The endpoint peers hear node `node` of network `network` from: one address a node, a port a network. */
export const peerEndpoint = (network: number, node: number) => `198.51.${100 + (node >> 8)}.${node & 255}:${20000 + network}`;

export type Answer = { status: number; body: any };
/** Delivers one request body (the caller times it); resolves to the server's answer. */
export type Send = (body: unknown) => Promise<Answer>;

/** A member of the fleet that reports: a device's heartbeat or a gateway agent's report, each with its own base. */
export interface Reporter {
  kind: "device" | "gateway";
  path: string;
  token: string;
  /** One beat: wgo's reportPeers over this beat's counters (a resync starts a full report, as wgo does). */
  beat(send: Send): Promise<{ requests: number; resyncs: number; failed: number }>;
}

/** `wg show dump` of a node whose peers all moved traffic: counters rise with the beat, handshakes are recent. */
export function dumpOf(peers: FleetPeer[], at: number, beat: number) {
  return peers.map((peer, i) => ({
    publicKey: peer.publicKey,
    latestHandshake: at - (i % 120),
    rxBytes: 3_000_000_000 + i + beat * 4096,
    txBytes: 900_000_000 + i + beat * 1024,
    endpoint: peer.endpoint,
  }));
}

/** Runs one beat through wgo's reportPeers, with `wrap(page)` making the request body; keeps the state it returns. */
function reporterOf(
  kind: Reporter["kind"],
  path: string,
  token: string,
  peers: FleetPeer[],
  wrap: (page: unknown) => unknown,
  answerOf: (body: any) => unknown,
): Reporter {
  const at = Math.floor(Date.now() / 1000);
  let state: unknown;
  let beats = 0;
  return {
    kind,
    path,
    token,
    async beat(send) {
      const { countersOf, emptyReportState, reportPeers } = await peerReport();
      state ??= emptyReportState();
      let failed = 0;
      const done = await reportPeers(state, countersOf(dumpOf(peers, at, beats++)), async (page: unknown) => {
        const answer = await send(wrap(page));
        if (answer.status !== 200) {
          failed++;
          return undefined;
        }
        return answerOf(answer.body);
      });
      state = done.state;
      return { requests: done.pages.length, resyncs: done.resynced ? 1 : 0, failed };
    },
  };
}

export interface FleetDeviceIdentity {
  deviceId: string;
  token: string;
  /** The network's routing revision the device applied (the last its enrolment or config gave it). */
  revision: number;
  localEndpoint: string;
}

/** A device's heartbeat, as cli/commands/heartbeat-report.mjs sends it. */
export const deviceReporter = (device: FleetDeviceIdentity, peers: FleetPeer[]): Reporter =>
  reporterOf(
    "device",
    `/api/v1/client/devices/${device.deviceId}/heartbeat`,
    device.token,
    peers,
    (peerReport) => ({ appliedRevision: device.revision, localEndpoints: [device.localEndpoint], peerReport }),
    (body) => body.peerReport,
  );

export interface FleetAgentIdentity {
  credential: string;
  nodeId: string;
  routing: number;
  dns: number;
}

/** A gateway agent's report of its one node (no pools in the fleet: no probes), as cli/gateway/reporter.mjs sends it. */
export const gatewayReporter = (agent: FleetAgentIdentity, peers: FleetPeer[]): Reporter =>
  reporterOf(
    "gateway",
    "/api/v1/agents/me/report",
    agent.credential,
    peers,
    (peerReport) => ({ nodes: [reportEntry({ ...agent, probes: [], peerKeys: [] }, true, peerReport)] }),
    (body) => body.nodes?.[0]?.peerReport,
  );
