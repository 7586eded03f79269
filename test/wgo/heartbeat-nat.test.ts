// What a device's heartbeat tells the server for paths across NAT (docs/nat.md): its local endpoints (the
// addresses of the namespace its WireGuard socket lives in, with the listen port) and, in each peer tuple,
// the endpoint WireGuard holds for that peer; a new endpoint sends the peer again. A server from before
// issue 28 refuses those fields: the beat goes again without them.
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { envelope, type FakeRoute } from "./support/fake-api.ts";
import { cli, runWgo, tempHome } from "./support/cli.ts";
import { enrolLaptop, newNetworkState, PEER_KEY, startDeviceApi } from "./support/device-api.ts";
import { type FakeHost, fakeHost } from "./support/fake-system.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

/** A link a test puts on the fake host, in namespace `ns` ("" for wgo's own), up unless said. */
function addLink(host: FakeHost, name: string, ns: string, addresses: string[], up = true) {
  host.links.set(name, { ns, up, mtu: null, addresses, conf: "", peers: new Map(), fwmark: null, dump: "" });
}

/** `wg show dump` with the listen port and one peer at `endpoint` ("(none)" for none). */
const dumpWith = (port: number, endpoint: string, handshake = 1763719200, rx = 1234, tx = 5678) =>
  `priv\tpub\t${port}\toff\n${PEER_KEY}\t(none)\t${endpoint}\t10.77.0.2/32\t${handshake}\t${rx}\t${tx}\t25\n`;

async function setup(routes: Record<string, FakeRoute> = {}, state = newNetworkState()) {
  const api = await startDeviceApi(routes, state);
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost();
  const wgo = (args: string[]) =>
    runWgo(["--home", home, "--json", ...args], { createSystem: host.createSystem, signals: new EventEmitter() });
  // The interface lives in ns1 (--netns); wgo itself runs in the host's namespace, which has a LAN of its own.
  addLink(host, "lo", "ns1", ["127.0.0.1/8", "::1/128"]);
  addLink(host, "eth0", "ns1", ["192.168.1.10/24", "169.254.7.7/16", "fd00::5/64", "fe80::5/64"]);
  addLink(host, "eth1", "ns1", ["192.168.2.10/24"], false);
  addLink(host, "wlan0", "", ["10.9.9.9/24"]);
  expect((await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"])).code).toBe(0);
  const beat = async () => {
    const result = await wgo(["heartbeat", "--name", "laptop", "--once"]);
    expect(result.code, result.stderr).toBe(0);
    return { result, body: api.state.heartbeats.at(-1) };
  };
  return { api, host, wgo, beat };
}

describe("heartbeats for paths across NAT", () => {
  it("carry the local endpoints of the interface's namespace: LAN addresses with the listen port, nothing else", async () => {
    const { host, beat } = await setup();
    host.links.get("wg7")!.dump = dumpWith(45123, "192.0.2.1:51820");
    const { result, body } = await beat();
    // Not loopback, not link-local (fe80::, 169.254/16), not the down eth1, not wg7's own 10.77.0.1, not wlan0 (another namespace).
    expect(body.localEndpoints).toEqual(["192.168.1.10:45123", "[fd00::5]:45123"]);
    expect(result.json[0].reported.localEndpoints).toBe(2);
  });

  it("at most 8 of them, IPv4 first; none while the interface is down", async () => {
    const { host, wgo, beat, api } = await setup();
    addLink(host, "eth2", "ns1", [
      ...Array.from({ length: 6 }, (_, i) => `fd00:2::${i + 1}/64`),
      ...Array.from({ length: 6 }, (_, i) => `10.2.0.${i + 1}/24`),
    ]);
    host.links.get("wg7")!.dump = dumpWith(45123, "(none)");
    const { body } = await beat();
    expect(body.localEndpoints).toEqual([
      "192.168.1.10:45123",
      ...Array.from({ length: 6 }, (_, i) => `10.2.0.${i + 1}:45123`),
      "[fd00::5]:45123",
    ]);
    await wgo(["down", "--name", "laptop"]);
    await wgo(["heartbeat", "--name", "laptop", "--once"]);
    expect(api.state.heartbeats.at(-1)).not.toHaveProperty("localEndpoints");
  });

  it("send each peer's endpoint in its tuple; a new endpoint sends the peer again, an unchanged one does not", async () => {
    const { api, host, beat } = await setup();
    const wg7 = host.links.get("wg7")!;
    wg7.dump = dumpWith(45123, "198.51.100.7:41641");
    expect((await beat()).body.peerReport.changed).toEqual([[PEER_KEY, 1763719200, 1234, 5678, "198.51.100.7:41641"]]);
    // The peer's NAT mapped it anew: same counters, new endpoint.
    wg7.dump = dumpWith(45123, "198.51.100.7:50000");
    expect((await beat()).body.peerReport.changed).toEqual([[PEER_KEY, 1763719200, 1234, 5678, "198.51.100.7:50000"]]);
    expect((await beat()).body.peerReport.changed).toEqual([]);
    expect(api.state.peerRows.get(PEER_KEY)).toEqual([1763719200, 1234, 5678, "198.51.100.7:50000"]);
    // A peer with no endpoint (it never reached us, we never had one for it) sends none.
    wg7.dump = dumpWith(45123, "(none)", 1763719300);
    expect((await beat()).body.peerReport.changed).toEqual([[PEER_KEY, 1763719300, 1234, 5678]]);
  });

  it("a server from before issue 28 refuses them: the same beat again without them, and the interface's peers still reach it", async () => {
    const state = newNetworkState();
    const old: FakeRoute = (request) => {
      const fields = [
        ...(request.body.localEndpoints ? [{ path: "localEndpoints", message: "Unknown field" }] : []),
        ...(request.body.peerReport?.changed ?? [])
          .map((entry: unknown[], i: number) => (entry.length > 4 ? { path: `peerReport.changed.${i}`, message: "Too big" } : null))
          .filter(Boolean),
      ];
      if (fields.length > 0) return { status: 422, body: envelope("VALIDATION_ERROR", "Invalid request", fields) };
      state.heartbeats.push(request.body);
      return { status: 200, body: { desiredRevision: state.revision, configChanged: false, peerReport: { seq: 7, resync: false } } };
    };
    const { host, beat } = await setup({ "POST /client/devices/dev_1/heartbeat": old }, state);
    host.links.get("wg7")!.dump = dumpWith(45123, "198.51.100.7:41641");
    const { body } = await beat();
    expect(body).toEqual({
      appliedRevision: 3,
      peerReport: { base: 7, changed: [[PEER_KEY, 1763719200, 1234, 5678]], removed: [], more: false },
    });
  });
});

describe("local endpoints from `ip -j address show`", () => {
  it("skip links that are down, loopback, tentative and link-scoped addresses", () => {
    const links = [
      { ifname: "lo", flags: ["LOOPBACK", "UP"], link_type: "loopback", addr_info: [{ local: "127.0.0.1", scope: "host" }] },
      {
        ifname: "eth0",
        flags: ["BROADCAST", "UP", "LOWER_UP"],
        addr_info: [
          { local: "192.168.1.10", scope: "global" },
          { local: "2001:db8::7", scope: "global", tentative: true },
          { local: "2001:db8::8", scope: "global" },
          { local: "fe80::1", scope: "link" },
        ],
      },
      { ifname: "wg7", flags: ["POINTOPOINT", "UP"], addr_info: [{ local: "10.77.0.1", scope: "global" }] },
    ];
    expect(cli.localEndpoints.localEndpointsOf(links, { ifname: "wg7", listenPort: 51820 })).toEqual([
      "192.168.1.10:51820",
      "[2001:db8::8]:51820",
    ]);
  });
});
