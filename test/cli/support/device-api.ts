// The managed-client routes of the fake API: enrolment, config and heartbeat for one network whose
// routing revision (and the AllowedIPs it hands out) the test moves, like an admin would.
import { envelope, startFakeApi, type FakeApi, type FakeRoute } from "./fake-api.ts";

export const DEVICE_TOKEN = "dvc_unit-test-credential";
export const PEER_KEY = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=";

export interface NetworkState {
  revision: number;
  /** AllowedIPs of the one peer, beyond its own address. */
  extraAllowedIps: string[];
  heartbeats: any[];
}

export function wgQuickText(state: NetworkState): string {
  return [
    `# wg-overlay: network net_1, node node_1, routing revision ${state.revision}`,
    "[Interface]",
    "PrivateKey = REPLACE_WITH_PRIVATE_KEY",
    "Address = 10.77.0.1/24",
    "DNS = 10.77.0.53",
    "",
    "[Peer]",
    "# gw (node_2)",
    `PublicKey = ${PEER_KEY}`,
    "Endpoint = 192.0.2.1:51820",
    `AllowedIPs = ${["10.77.0.2/32", ...state.extraAllowedIps].join(", ")}`,
    "PersistentKeepalive = 25",
    "",
  ].join("\n");
}

function nodeConfig(state: NetworkState) {
  return {
    nodeId: "node_1",
    networkId: "net_1",
    routingRevision: state.revision,
    interface: { address: "10.77.0.1/24", listenPort: null, dns: ["10.77.0.53"] },
    peers: [
      {
        nodeId: "node_2",
        name: "gw",
        publicKey: PEER_KEY,
        endpoint: "192.0.2.1:51820",
        allowedIps: ["10.77.0.2/32", ...state.extraAllowedIps],
        persistentKeepalive: 25,
      },
    ],
    routingIntent: [],
    forwarding: false,
    wgQuick: wgQuickText(state),
  };
}

/** The 201 answer of POST /client/devices. */
export function enrolled(state: NetworkState, name: string) {
  return {
    status: 201,
    body: {
      device: { id: "dev_1", networkId: "net_1", nodeId: "node_1", name },
      node: { id: "node_1" },
      config: nodeConfig(state),
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
  return { revision: 3, extraAllowedIps: [], heartbeats: [] };
}

export async function startDeviceApi(
  extra: Record<string, FakeRoute> = {},
  state: NetworkState = newNetworkState(),
): Promise<FakeApi & { state: NetworkState }> {
  const api = await startFakeApi({
    "POST /client/devices": (request) => enrolled(state, request.body.name),
    "POST /client/devices/dev_1/config": asDevice(() => ({ status: 200, body: { deviceId: "dev_1", config: nodeConfig(state) } })),
    "POST /client/devices/dev_1/heartbeat": asDevice((request) => {
      state.heartbeats.push(request.body);
      return { status: 200, body: { desiredRevision: state.revision, configChanged: request.body.appliedRevision !== state.revision } };
    }),
    ...extra,
  });
  return Object.assign(api, { state });
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
