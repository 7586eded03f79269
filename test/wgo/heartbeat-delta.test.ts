// `wgo heartbeat --apply` with delta sync: it asks for what changed since the revision it holds, applies
// the peers that changed with `wg set` (never syncconf), and ends with the file, the held config and the
// interface exactly as the full config would have left them. Whatever wg set cannot do goes the full way.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { cli, runWgo, tempHome } from "./support/cli.ts";
import type { PeerConfig } from "./support/config-diff.ts";
import {
  currentConfig,
  dumpText,
  enrolLaptop,
  type NetworkState,
  newNetworkState,
  PEER_KEY,
  startDeviceApi,
} from "./support/device-api.ts";
import type { FakeRoute } from "./support/fake-api.ts";
import { fakeHost, peersOf } from "./support/fake-system.ts";

const KEY_B = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
const KEY_C = "HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=";
const KEY_D = "aFpDxLeOHsFMLNlA0Fge0JNb1T3HBFc6DrWIeaOpW2o=";

const laptop = (nodeId: string, address: string, publicKey: string, rest: Partial<PeerConfig> = {}): PeerConfig => ({
  nodeId,
  name: nodeId,
  address,
  publicKey,
  endpoint: null,
  allowedIps: [`${address}/32`],
  persistentKeepalive: null,
  ...rest,
});

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup(routes: Record<string, FakeRoute> = {}, state: NetworkState = newNetworkState()) {
  const api = await startDeviceApi(routes, state);
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost();
  const wgo = (args: string[]) => runWgo(["--home", home, "--json", ...args], { createSystem: host.createSystem });
  await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
  host.links.get("wg7")!.dump = dumpText(1763719200, 1234, 5678);
  const file = (name: string) => join(home, "devices", name);
  const privateKey = readFileSync(file("laptop.key"), "utf8").trim();
  /** The server's full text for its current revision, with this device's key filled in. */
  const serverText = () => cli.wgQuick.fillPrivateKey(currentConfig(api.state).wgQuick, privateKey);
  const beat = () => wgo(["heartbeat", "--name", "laptop", "--once", "--apply"]);
  const configRequests = () => api.requests.filter((r) => r.path.endsWith("/config"));
  const peerSets = () =>
    host.calls.filter((argv) => argv.slice(4, 6).join(" ") === "wg set" && argv[7] === "peer").map((argv) => argv.slice(4).join(" "));
  return { api, home, host, wgo, file, serverText, beat, configRequests, peerSets };
}

describe("wgo heartbeat --apply with delta sync", () => {
  it("applies added, changed, re-keyed and removed peers with wg set, never syncconf, ending where the full config would", async () => {
    const { api, host, file, serverText, beat, configRequests, peerSets, wgo } = await setup();
    api.state.revision = 4;
    api.state.extraAllowedIps = ["192.168.77.0/24"];
    api.state.peers = [
      laptop("node_3", "10.77.0.3", KEY_B, { allowedIps: ["10.77.0.3/32", "192.168.88.0/24"] }),
      laptop("node_4", "10.77.0.4", KEY_D),
    ];
    const first = await beat();
    expect(first.code, first.stderr).toBe(0);
    expect(configRequests().at(-1)!.body).toEqual({ sinceRevision: 3 });
    expect(api.state.configAnswers.at(-1)).toBe("delta");
    expect(first.json[0]).toMatchObject({
      appliedRevision: 3,
      desiredRevision: 4,
      applied: { revision: 4, action: "delta", peersUpserted: 3, peersRemoved: 0, routes: ["192.168.77.0/24", "192.168.88.0/24"] },
      fetched: [{ answer: "delta", bytes: expect.any(Number) }],
    });
    expect(peerSets()).toEqual([
      `wg set wg7 peer ${PEER_KEY} allowed-ips 10.77.0.2/32,192.168.77.0/24 endpoint 192.0.2.1:51820 persistent-keepalive 25`,
      `wg set wg7 peer ${KEY_B} allowed-ips 10.77.0.3/32,192.168.88.0/24 persistent-keepalive off`,
      `wg set wg7 peer ${KEY_D} allowed-ips 10.77.0.4/32 persistent-keepalive off`,
    ]);
    expect(host.wgVerbs).toEqual(["setconf"]);
    expect(readFileSync(file("laptop.conf"), "utf8")).toBe(serverText());
    expect(host.links.get("wg7")!.peers).toEqual(peersOf(serverText()));
    expect(host.routesOf("wg7")).toEqual(["192.168.77.0/24", "192.168.88.0/24"]);

    // node_4 leaves, node_3 gets a new key: both old keys are removed before the new one is set.
    api.state.revision = 5;
    api.state.peers = [laptop("node_3", "10.77.0.3", KEY_C)];
    const second = await beat();
    expect(configRequests().at(-1)!.body).toEqual({ sinceRevision: 4 });
    expect(second.json[0]).toMatchObject({ applied: { revision: 5, action: "delta", peersUpserted: 1, peersRemoved: 1 } });
    expect(peerSets().slice(3)).toEqual([
      `wg set wg7 peer ${KEY_D} remove`,
      `wg set wg7 peer ${KEY_B} remove`,
      `wg set wg7 peer ${KEY_C} allowed-ips 10.77.0.3/32 persistent-keepalive off`,
    ]);
    expect(host.wgVerbs).toEqual(["setconf"]);
    expect(readFileSync(file("laptop.conf"), "utf8")).toBe(serverText());
    expect(host.links.get("wg7")!.peers).toEqual(peersOf(serverText()));
    expect(host.routesOf("wg7")).toEqual(["192.168.77.0/24"]);
    expect(JSON.parse(readFileSync(file("laptop.nodeconfig"), "utf8"))).toEqual(currentConfig(api.state));
    expect(statSync(file("laptop.nodeconfig")).mode & 0o777).toBe(0o600);

    const [next] = (await wgo(["heartbeat", "--name", "laptop", "--once"])).json;
    expect(next).toMatchObject({ appliedRevision: 5, desiredRevision: 5, configChanged: false });
  });

  it("turns forwarding on with its sysctl when that is all that changed (no peer command at all)", async () => {
    const { api, host, beat, peerSets, file, serverText } = await setup();
    api.state.revision = 4;
    api.state.forwarding = true;
    const [report] = (await beat()).json;
    expect(report).toMatchObject({ applied: { revision: 4, action: "delta", peersUpserted: 0, peersRemoved: 0 } });
    expect(peerSets()).toEqual([]);
    expect(host.sysctls).toEqual(["net.ipv4.ip_forward=1"]);
    expect(host.wgVerbs).toEqual(["setconf"]);
    expect(readFileSync(file("laptop.conf"), "utf8")).toBe(serverText());
  });

  const fullWay: Array<[string, (state: NetworkState) => void, string]> = [
    [
      "the interface settings changed",
      (state) => {
        state.dns = ["10.77.0.54"];
      },
      "the interface settings changed",
    ],
    [
      "a peer lost its endpoint (wg set cannot unset one)",
      (state) => {
        state.peers = [laptop("node_3", "10.77.0.3", KEY_B)];
      },
      "peer node_3 no longer has an endpoint, which wg set cannot unset",
    ],
  ];
  it.each(fullWay)("re-applies with syncconf when %s, from the delta alone", async (_title, change, reason) => {
    const state = newNetworkState();
    state.peers = [laptop("node_3", "10.77.0.3", KEY_B, { endpoint: "198.51.100.3:51820" })];
    const { api, host, beat, peerSets, file, serverText, configRequests } = await setup({}, state);
    api.state.revision = 4;
    change(api.state);
    const result = await beat();
    expect(result.json[0]).toMatchObject({ applied: { revision: 4, action: "synced" }, fetched: [{ answer: "delta" }] });
    expect(result.stderr).toContain(`note: revision 4 applied with wg syncconf: ${reason}\n`);
    expect(configRequests()).toHaveLength(1);
    expect(peerSets()).toEqual([]);
    expect(host.wgVerbs).toEqual(["setconf", "syncconf"]);
    expect(readFileSync(file("laptop.conf"), "utf8")).toBe(serverText());
    expect(host.links.get("wg7")!.peers).toEqual(peersOf(serverText()));
  });

  it("uses syncconf when the interface does not run the held revision (`wgo config` fetched one since)", async () => {
    const { api, host, beat, wgo, peerSets } = await setup();
    api.state.revision = 4;
    await wgo(["config", "--name", "laptop"]); // held 4, interface still 3
    api.state.revision = 5;
    api.state.peers = [laptop("node_3", "10.77.0.3", KEY_B)];
    const result = await beat();
    expect(result.json[0]).toMatchObject({ applied: { revision: 5, action: "synced", peersUpserted: 1 } });
    expect(result.stderr).toContain("note: revision 5 applied with wg syncconf: wg7 runs revision 3, not the held 4\n");
    expect(peerSets()).toEqual([]);
    expect(host.wgVerbs).toEqual(["setconf", "syncconf"]);
  });

  it("a full config answer still goes through syncconf", async () => {
    const { api, host, beat, peerSets, configRequests, file, serverText } = await setup();
    api.state.deltas = false;
    api.state.revision = 4;
    api.state.extraAllowedIps = ["192.168.77.0/24"];
    const [report] = (await beat()).json;
    expect(configRequests().at(-1)!.body).toEqual({ sinceRevision: 3 });
    expect(report).toMatchObject({
      applied: { revision: 4, action: "synced", routes: ["192.168.77.0/24"] },
      fetched: [{ answer: "config" }],
    });
    expect(host.wgVerbs).toEqual(["setconf", "syncconf"]);
    expect(peerSets()).toEqual([]);
    expect(readFileSync(file("laptop.conf"), "utf8")).toBe(serverText());
  });

  it("refuses a delta from another revision and falls back to the full config, fetched without a body", async () => {
    const state = newNetworkState();
    const { api, host, beat, configRequests, peerSets, file, serverText } = await setup(
      {
        "POST /client/devices/dev_1/config": (request) => {
          const config = currentConfig(state);
          if (request.body === undefined) return { status: 200, body: { deviceId: "dev_1", config } };
          const delta = { nodeId: "node_1", networkId: "net_1", fromRevision: 2, routingRevision: 4, peersUpserted: [], peersRemoved: [] };
          return { status: 200, body: { deviceId: "dev_1", delta } };
        },
      },
      state,
    );
    api.state.revision = 4;
    api.state.extraAllowedIps = ["192.168.77.0/24"];
    const result = await beat();
    expect(result.stderr).toContain(
      "note: the delta was not applied (the delta starts at revision 2, but the held config is revision 3): fetching the full config\n",
    );
    expect(configRequests().map((r) => r.body)).toEqual([{ sinceRevision: 3 }, undefined]);
    expect(result.json[0]).toMatchObject({
      applied: { revision: 4, action: "synced", routes: ["192.168.77.0/24"] },
      fetched: [{ answer: "delta" }, { answer: "config" }],
    });
    expect(peerSets()).toEqual([]);
    expect(host.wgVerbs).toEqual(["setconf", "syncconf"]);
    expect(readFileSync(file("laptop.conf"), "utf8")).toBe(serverText());
  });

  it("with the interface down stores the delta's result for the next `wgo up`", async () => {
    const { api, host, beat, wgo, file, serverText } = await setup();
    await wgo(["down", "--name", "laptop"]);
    api.state.revision = 4;
    api.state.peers = [laptop("node_3", "10.77.0.3", KEY_B)];
    const result = await beat();
    expect(result.json[0]).toMatchObject({ applied: null, fetched: [{ answer: "delta" }] });
    expect(result.stderr).toContain("note: fetched revision 4, but wg7 is not up: run `wgo up --name laptop`\n");
    expect(readFileSync(file("laptop.conf"), "utf8")).toBe(serverText());
    await wgo(["up", "--name", "laptop"]);
    expect(host.links.get("wg7")!.peers).toEqual(peersOf(serverText()));
  });

  it("`wgo config` asks for the full config (no body) and keeps it as the delta base", async () => {
    const { api, wgo, file, configRequests } = await setup();
    api.state.revision = 4;
    await wgo(["config", "--name", "laptop"]);
    expect(configRequests().at(-1)!.body).toBeUndefined();
    expect(JSON.parse(readFileSync(file("laptop.nodeconfig"), "utf8"))).toEqual(currentConfig(api.state));
  });

  it("between beats it long-polls the config: a routing change is applied at once, not at the next beat", async () => {
    const { api, home, host } = await setup();
    const signals = new EventEmitter();
    setTimeout(() => {
      api.state.revision = 4;
      api.state.peers = [laptop("node_3", "10.77.0.3", KEY_B)];
    }, 300);
    const watch = setInterval(() => {
      if (api.state.heartbeats.some((beat: { appliedRevision: number }) => beat.appliedRevision === 4)) signals.emit("SIGTERM");
    }, 20);
    stop.push(() => clearInterval(watch));
    // A 60 s interval: only the long poll can bring revision 4 in before this test's 5 s timeout.
    const result = await runWgo(["--home", home, "--json", "heartbeat", "--name", "laptop", "--apply", "--interval", "60"], {
      createSystem: host.createSystem,
      signals,
    });
    expect(result.code, result.stderr).toBe(0);
    const polls = api.requests.filter((r) => r.path.endsWith("/config") && r.query.get("wait") === "60");
    expect(polls[0]!.body).toEqual({ sinceRevision: 3 });
    expect(result.json.map((line: { applied: { revision: number } | null }) => line.applied?.revision ?? null)).toContain(4);
    expect(host.links.get("wg7")!.peers.has(KEY_B)).toBe(true);
  });
});
