// The managed-client routes of the fake API: enrolment, config and heartbeat for one network whose
// routing revision (and the peers and AllowedIPs it hands out) the test moves, like an admin would.
// Configs are remembered by revision, so …/config answers a delta to a known sinceRevision.
import { diffConfigs, type NodeConfig, nodeConfig, type PeerConfig } from "./config-diff.ts";
import { envelope, startFakeApi, type FakeApi, type FakeRoute } from "./fake-api.ts";

export const DEVICE_TOKEN = "dvc_unit-test-credential";
export const PEER_KEY = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=";

export interface NetworkState {
  revision: number;
  /** AllowedIPs of the gateway peer, beyond its own address. */
  extraAllowedIps: string[];
  /** Peers beyond the gateway. */
  peers: PeerConfig[];
  forwarding: boolean;
  /** Policy mode: the node's inbound filter (docs/access.md); undefined in open mode. */
  accessRules?: { from: string[]; ports: string[] }[];
  dns: string[];
  heartbeats: any[];
  /** Every config served, by revision: what a delta is computed from, like the server's history. */
  served: Map<number, NodeConfig>;
  /** What each POST …/config answered. */
  configAnswers: Array<"config" | "delta">;
  /** false: /config ignores sinceRevision, like a server that cannot make a delta from there. */
  deltas: boolean;
  /** The node's ListenPort (null: WireGuard picks one). */
  listenPort: number | null;
  /** What the server holds of the device's peer reports: the rows, the seq of the last accepted page. */
  peerRows: Map<string, [number, number, number, string?]>;
  peerSeq: number | null;
  /** false: a server from before peer reports, which refuses the field (422). */
  peerReports: boolean;
}

export const GATEWAY: PeerConfig = {
  nodeId: "node_2",
  name: "gw",
  address: "10.77.0.2",
  publicKey: PEER_KEY,
  endpoint: "192.0.2.1:51820",
  allowedIps: ["10.77.0.2/32"],
  persistentKeepalive: 25,
};

/** The config the network serves now (rendered by the Worker's renderer), remembered by revision. */
export function currentConfig(state: NetworkState): NodeConfig {
  const config = nodeConfig({
    nodeId: "node_1",
    networkId: "net_1",
    routingRevision: state.revision,
    interface: { address: "10.77.0.1/24", listenPort: state.listenPort, dns: state.dns, dnsSearch: [] },
    peers: [{ ...GATEWAY, allowedIps: [...GATEWAY.allowedIps, ...state.extraAllowedIps] }, ...state.peers],
    routingIntent: [],
    forwarding: state.forwarding,
    ...(state.accessRules ? { accessRules: state.accessRules } : {}),
  });
  state.served.set(state.revision, config);
  return config;
}

/** POST …/config: a delta when sinceRevision names a config served before, else the full config. */
function configAnswer(state: NetworkState, body: any) {
  const since = body?.sinceRevision;
  const base = state.deltas && typeof since === "number" ? state.served.get(since) : undefined;
  const current = currentConfig(state);
  state.configAnswers.push(base ? "delta" : "config");
  return { status: 200, body: base ? { deviceId: "dev_1", delta: diffConfigs(base, current) } : { deviceId: "dev_1", config: current } };
}

/** The 201 answer of POST /client/devices. */
export function enrolled(state: NetworkState, name: string) {
  return {
    status: 201,
    body: {
      device: { id: "dev_1", networkId: "net_1", nodeId: "node_1", name },
      node: { id: "node_1" },
      config: currentConfig(state),
      deviceToken: DEVICE_TOKEN,
    },
  };
}

/** Device routes need the device credential: anything else is the server's 401. */
const asDevice =
  (route: FakeRoute): FakeRoute =>
  (request) =>
    request.token === DEVICE_TOKEN ? route(request) : { status: 401, body: envelope("unauthorized", "The device credential is not valid") };

export function newNetworkState(): NetworkState {
  return {
    revision: 3,
    extraAllowedIps: [],
    peers: [],
    forwarding: false,
    dns: ["10.77.0.53"],
    heartbeats: [],
    served: new Map(),
    configAnswers: [],
    deltas: true,
    listenPort: null,
    peerRows: new Map(),
    peerSeq: null,
    peerReports: true,
  };
}

export async function startDeviceApi(
  extra: Record<string, FakeRoute> = {},
  state: NetworkState = newNetworkState(),
): Promise<FakeApi & { state: NetworkState }> {
  const api = await startFakeApi({
    "POST /client/devices": (request) => enrolled(state, request.body.name),
    "POST /client/devices/dev_1/config": asDevice(async (request) => {
      // The server's long poll: with ?wait= and the current revision held, answer once it moves (or time is up).
      const wait = Number(request.query.get("wait") ?? 0);
      const deadline = Date.now() + wait * 1000;
      while (wait > 0 && request.body?.sinceRevision === state.revision && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return configAnswer(state, request.body);
    }),
    "POST /client/devices/dev_1/heartbeat": asDevice((request) => {
      state.heartbeats.push(request.body);
      const report = request.body.peerReport;
      if (report && !state.peerReports) {
        return { status: 422, body: envelope("VALIDATION_ERROR", "Invalid request", [{ path: "peerReport", message: "Unknown field" }]) };
      }
      const ack = { desiredRevision: state.revision, configChanged: request.body.appliedRevision !== state.revision };
      return { status: 200, body: report ? { ...ack, peerReport: peerReportAnswer(state, report) } : ack };
    }),
    ...extra,
  });
  return Object.assign(api, { state });
}

/** The server's rule (src/objects/network/operations/peer-reports.ts), on a map: a page builds on the last seq or starts over. */
function peerReportAnswer(
  state: NetworkState,
  report: { base: number | null; changed: [string, number, number, number, string?][]; removed: string[] },
) {
  if (report.base !== null && report.base !== state.peerSeq) return { seq: null, resync: true };
  if (report.base === null) state.peerRows.clear();
  for (const [key, ...counters] of report.changed) state.peerRows.set(key, counters as [number, number, number, string?]);
  for (const key of report.removed) state.peerRows.delete(key);
  state.peerSeq = (state.peerSeq ?? 0) + 1;
  return { seq: state.peerSeq, resync: false };
}

/** A home with device "laptop" enrolled (headless) against `api`; returns the runner pinned to that home. */
export async function enrolLaptop(runWgo: (args: string[], options?: any) => Promise<any>, apiUrl: string, home: string) {
  const result = await runWgo(["--api", apiUrl, "--home", home, "enrol", "--name", "laptop", "--enrolment-key", "ek_1"]);
  if (result.code !== 0) throw new Error(`enrol failed: ${result.stderr}`);
}

/** `wg show <if> dump` text with the one peer: a handshake at `handshake` (epoch s) and the counters. */
export function dumpText(handshake: number, rx: number, tx: number): string {
  return `privkey\tpubkey\t0\toff\n${PEER_KEY}\t(none)\t192.0.2.1:51820\t10.77.0.2/32\t${handshake}\t${rx}\t${tx}\t25\n`;
}
