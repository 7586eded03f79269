// A pair moved onto a relay (docs/nat.md): the peer's own entry stays with `allowedIps: []` (endpoint and
// keepalive kept, so WireGuard retries the direct path underneath) while its addresses move onto the relay's
// entry. wg refuses the `AllowedIPs = ` line the server renders for it, so wgo leaves the line out; `up`,
// heartbeat --apply (wg set and syncconf alike) and `wgo gateway run` apply it with no route and no error,
// and a delta that refills it brings the routes back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, runWgo, tempHome } from "./support/cli.ts";
import { nodeConfig, type PeerConfig } from "./support/config-diff.ts";
import { enrolLaptop, PEER_KEY, startDeviceApi } from "./support/device-api.ts";
import { startFakeApi } from "./support/fake-api.ts";
import { fakeHost } from "./support/fake-system.ts";

const KEY_B = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
const B_DIRECT = ["10.77.0.3/32", "192.168.50.0/24"];
/** Peer B: another laptop behind NAT, with a LAN behind it; its endpoint the server learned. */
const peerB = (allowedIps: string[]): PeerConfig => ({
  nodeId: "node_3",
  name: "b",
  address: "10.77.0.3",
  publicKey: KEY_B,
  endpoint: "198.51.100.3:41641",
  allowedIps,
  persistentKeepalive: 25,
});

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup(hostOptions: Parameters<typeof fakeHost>[0] = {}) {
  const api = await startDeviceApi();
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost(hostOptions);
  const wgo = (args: string[]) => runWgo(["--home", home, "--json", ...args], { createSystem: host.createSystem });
  /** Relayed: B's own entry empty, its addresses on the gateway's (the relay's) entry; else direct. */
  const route = (path: "relay" | "direct", relayTakes = B_DIRECT) => {
    api.state.peers = [peerB(path === "relay" ? [] : B_DIRECT)];
    api.state.extraAllowedIps = path === "relay" ? relayTakes : [];
  };
  const peers = () => host.links.get("wg7")!.peers;
  /** The path the server hands out now, fetched into the device's file (as `wgo config` does) for the next `up`. */
  const routeNow = async (path: "relay" | "direct", relayTakes = B_DIRECT) => {
    route(path, relayTakes);
    expect((await wgo(["config", "--name", "laptop"])).code).toBe(0);
  };
  return { api, home, host, wgo, route, routeNow, peers };
}

describe("a peer kept with no AllowedIPs (a relayed pair)", () => {
  for (const method of ["setconf", "wg-quick"]) {
    it(`comes up with ${method}: the peer with endpoint and keepalive but no address, its addresses through the relay`, async () => {
      const { host, wgo, routeNow, peers } = await setup({ kernelModule: method === "wg-quick" });
      await routeNow("relay");
      const up = await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7", "--method", method]);
      expect(up.code, up.stderr).toBe(0);
      expect(peers().get(KEY_B)).toEqual({ allowedIps: [], endpoint: "198.51.100.3:41641", keepalive: 25 });
      expect(peers().get(PEER_KEY)!.allowedIps).toEqual(["10.77.0.2/32", ...B_DIRECT]);
      // wg-quick routes by itself (the fake host does not play that part).
      if (method === "setconf") expect(host.routesOf("wg7")).toEqual(["192.168.50.0/24"]);
    });
  }

  it("a lone empty peer gets no route and no error", async () => {
    const { host, wgo, routeNow, peers } = await setup();
    await routeNow("relay", []);
    expect((await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"])).code).toBe(0);
    expect(peers().get(KEY_B)!.allowedIps).toEqual([]);
    expect(host.routesOf("wg7")).toEqual([]);
  });

  it('heartbeat --apply deltas empty it (wg set allowed-ips "") and refill it, routes following', async () => {
    const { api, host, wgo, route, routeNow, peers } = await setup();
    await routeNow("direct");
    await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
    expect(host.routesOf("wg7")).toEqual(["192.168.50.0/24"]);

    api.state.revision = 4;
    route("relay", ["10.77.0.3/32"]); // the relay takes B's address; B's LAN has no path this revision
    const relayed = await wgo(["heartbeat", "--name", "laptop", "--once", "--apply"]);
    expect(relayed.json[0].applied, relayed.stderr).toMatchObject({ revision: 4, action: "delta" });
    expect(host.calls).toContainEqual([
      "ip",
      "netns",
      "exec",
      "ns1",
      "wg",
      "set",
      "wg7",
      "peer",
      KEY_B,
      "allowed-ips",
      "",
      "endpoint",
      "198.51.100.3:41641",
      "persistent-keepalive",
      "25",
    ]);
    expect(peers().get(KEY_B)).toEqual({ allowedIps: [], endpoint: "198.51.100.3:41641", keepalive: 25 });
    expect(peers().get(PEER_KEY)!.allowedIps).toEqual(["10.77.0.2/32", "10.77.0.3/32"]);
    expect(host.routesOf("wg7")).toEqual([]);

    api.state.revision = 5;
    route("direct");
    const direct = await wgo(["heartbeat", "--name", "laptop", "--once", "--apply"]);
    expect(direct.json[0].applied).toMatchObject({ revision: 5, action: "delta" });
    expect(peers().get(KEY_B)!.allowedIps).toEqual(B_DIRECT);
    expect(peers().get(PEER_KEY)!.allowedIps).toEqual(["10.77.0.2/32"]);
    expect(host.routesOf("wg7")).toEqual(["192.168.50.0/24"]);
  });

  it("the full config (wg syncconf) empties and refills it the same way", async () => {
    const { api, host, wgo, route, routeNow, peers } = await setup();
    api.state.deltas = false;
    await routeNow("direct");
    await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
    api.state.revision = 4;
    route("relay", ["10.77.0.3/32"]);
    expect((await wgo(["heartbeat", "--name", "laptop", "--once", "--apply"])).json[0].applied).toMatchObject({ action: "synced" });
    expect(peers().get(KEY_B)!.allowedIps).toEqual([]);
    expect(host.routesOf("wg7")).toEqual([]);
    api.state.revision = 5;
    route("direct");
    expect((await wgo(["heartbeat", "--name", "laptop", "--once", "--apply"])).json[0].applied).toMatchObject({ action: "synced" });
    expect(peers().get(KEY_B)!.allowedIps).toEqual(B_DIRECT);
    expect(host.routesOf("wg7")).toEqual(["192.168.50.0/24"]);
    expect(host.wgVerbs).toEqual(["setconf", "syncconf", "syncconf"]);
  });

  it("`wgo config --out` writes a file wg-quick takes: no empty AllowedIPs line", async () => {
    const { home, wgo, route } = await setup();
    route("relay");
    const out = join(home, "out.conf");
    expect((await wgo(["config", "--name", "laptop", "--out", out])).code).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toContain(`PublicKey = ${KEY_B}\nEndpoint = 198.51.100.3:41641\nPersistentKeepalive = 25\n`);
    expect(text).not.toMatch(/^AllowedIPs = *$/m);
  });
});

describe("wgo gateway run with a relayed pair", () => {
  it("applies a node whose peer has no AllowedIPs, in its network's namespace, and reports no error", async () => {
    const config = nodeConfig({
      nodeId: "node_gw1",
      networkId: "net_1",
      routingRevision: 4,
      interface: { address: "10.60.0.1/24", listenPort: 51820, dns: [], dnsSearch: [] },
      peers: [
        { ...peerB([]), address: "10.60.0.3" },
        { ...peerB(["10.60.0.3/32", "192.168.50.0/24"]), nodeId: "node_r", name: "relay", address: "10.60.0.9", publicKey: PEER_KEY },
      ],
      routingIntent: [],
      forwarding: true,
    });
    const entry = {
      networkId: "net_1",
      nodeId: "node_gw1",
      address: "10.60.0.1",
      servesDns: false,
      dns: { domain: "lab.internal", revision: 2 },
    };
    const api = await startFakeApi({
      "PUT /agents/me/nodes/node_gw1": (request) => ({ status: 200, body: { id: "node_gw1", publicKey: request.body.publicKey } }),
      "POST /agents/me/report": (request) => ({
        status: 200,
        body: { nodes: request.body.nodes.map((n: { nodeId: string }) => ({ nodeId: n.nodeId })) },
      }),
      "GET /agents/me/desired-state": () => ({ status: 200, body: { gatewayId: "gw_1", nodes: [{ ...entry, publicKey: null, config }] } }),
    });
    const dir = mkdtempSync(join(tmpdir(), "wgo-gw-relayed-"));
    stop.push(
      () => api.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    writeFileSync(
      join(dir, "agent.json"),
      JSON.stringify({ api: api.url, agentId: "agt_1", gatewayId: "gw_1", name: "edge", credential: "agc_secret" }),
      { mode: 0o600 },
    );
    const host = fakeHost();
    const result = await runWgo(["--json", "gateway", "run", "--once", "--state-dir", dir], { createSystem: host.createSystem, env: {} });
    expect(result.code, result.stderr).toBe(0);
    const report = api.requests.filter((r) => r.path === "/agents/me/report").at(-1)!.body.nodes[0];
    expect(report).toMatchObject({ nodeId: "node_gw1", appliedRoutingRevision: 4, error: null });
    const [ifname] = [...host.links.keys()].filter((name) => /^wgo[0-9a-f]{8}$/.test(name));
    const link = host.links.get(ifname!)!;
    expect(link.ns).toBe(cli.domains.domainNames(null, "net_1").netns);
    expect(link.peers.get(KEY_B)).toEqual({ allowedIps: [], endpoint: "198.51.100.3:41641", keepalive: 25 });
    expect(host.routesOf(ifname!)).toEqual(["192.168.50.0/24"]);
  });
});

describe("the setconf text", () => {
  it("leaves out an empty AllowedIPs line and keeps the rest of the peer", () => {
    const text =
      "[Interface]\nPrivateKey = k\nAddress = 10.77.0.1/24\n\n[Peer]\nPublicKey = b\nEndpoint = 198.51.100.3:41641\nAllowedIPs = \nPersistentKeepalive = 25\n";
    const plan = cli.wgQuick.planWgQuick(text);
    expect(plan.setconf).toBe(
      "[Interface]\nPrivateKey = k\n[Peer]\nPublicKey = b\nEndpoint = 198.51.100.3:41641\nPersistentKeepalive = 25\n",
    );
    expect(plan.allowedIps).toEqual([]);
    expect(cli.wgQuick.wgQuickFile(text)).toBe(text.replace("AllowedIPs = \n", ""));
    // As the last line of a file with no newline at its end, too; a line with addresses stays.
    expect(cli.wgQuick.wgQuickFile("[Peer]\nPublicKey = b\nAllowedIPs =")).toBe("[Peer]\nPublicKey = b\n");
    expect(cli.wgQuick.wgQuickFile("[Peer]\nAllowedIPs = 10.0.0.2/32\n")).toBe("[Peer]\nAllowedIPs = 10.0.0.2/32\n");
  });
});
