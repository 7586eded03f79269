// `wgo gateway`: enrol, then run against a fake agent API on a simulated host. What the server is told
// (the node's public key, reports) and what the host ends up with (interface, addresses, routes,
// forwarding) are asserted; the DNS server itself runs for real in test/e2e/gateway.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { EventEmitter, getEventListeners } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, runWgo } from "./support/cli.ts";
import { diffConfigs, nodeConfig, type NodeConfig } from "./support/config-diff.ts";
import { envelope, startFakeApi, type FakeAnswer, type FakeApi, type FakeRequest, type FakeRoute } from "./support/fake-api.ts";
import { fakeHost } from "./support/fake-system.ts";

const NODE = "node_gw1";
const NETWORK = "net_1";
const PEER_KEY = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=";
const AGENT = { id: "agt_1", kind: "gateway-daemon", gatewayId: "gw_1", name: "edge", regionId: null };

const config = (revision: number, peers: Array<{ nodeId: string; address: string; allowedIps: string[] }>): NodeConfig =>
  nodeConfig({
    nodeId: NODE,
    networkId: NETWORK,
    routingRevision: revision,
    interface: { address: "10.60.0.1/24", listenPort: 51820, dns: [], dnsSearch: [] },
    peers: peers.map((peer, i) => ({
      ...peer,
      name: `peer${i}`,
      publicKey: i === 0 ? PEER_KEY : "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=",
      endpoint: null,
      persistentKeepalive: null,
    })),
    routingIntent: [],
    forwarding: true,
  });

const FIRST = config(4, [{ nodeId: "node_g2", address: "10.60.0.2", allowedIps: ["10.60.0.2/32", "192.168.99.0/24"] }]);
const dns = { domain: "lab.internal", revision: 2 };
/** NETWORK's routing domain on a host run without --netns (cli/gateway/domains.mjs). */
const DOMAIN = cli.domains.domainNames(null, NETWORK).netns;
/** The nodes' WireGuard links (the veths of the routing domains aside). */
const wgLinks = (host: ReturnType<typeof fakeHost>) => [...host.links.keys()].filter((name) => /^wgo[0-9a-f]{8}$/.test(name));

let api: FakeApi | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A state directory holding an enrolled agent, a fake API with `routes`, and a simulated host. */
async function setup(routes: Record<string, FakeRoute>, hostOptions: Parameters<typeof fakeHost>[0] = {}) {
  api = await startFakeApi({
    "PUT /agents/me/nodes/node_gw1": (request) => ({ status: 200, body: { id: NODE, publicKey: request.body.publicKey } }),
    "POST /agents/me/report": (request) => ({
      status: 200,
      body: { nodes: request.body.nodes.map((n: { nodeId: string }) => ({ nodeId: n.nodeId })) },
    }),
    ...routes,
  });
  const dir = mkdtempSync(join(tmpdir(), "wgo-gw-"));
  dirs.push(dir);
  const agentFile = join(dir, "agent.json");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(
    agentFile,
    JSON.stringify({ api: api.url, agentId: AGENT.id, gatewayId: AGENT.gatewayId, name: "edge", credential: "agc_secret" }),
    { mode: 0o600 },
  );
  const host = fakeHost(hostOptions);
  const run = (args: string[], signals?: EventEmitter) =>
    runWgo(["--json", "gateway", ...args, "--state-dir", dir], { createSystem: host.createSystem, signals, env: {} });
  return { api, dir, host, run };
}

const desired = (nodes: unknown[]) => ({
  status: 200,
  body: { gatewayId: AGENT.gatewayId, nodes },
  headers: { etag: `"e${nodes.length}"` },
});
const entry = (extra: Record<string, unknown>) => ({
  networkId: NETWORK,
  nodeId: NODE,
  address: "10.60.0.1",
  servesDns: false,
  dns,
  ...extra,
});
/** A first peer report of an interface with no peers in use (cli/peer-report.mjs). */
const NO_PEERS = { base: null, changed: [], removed: [], more: false };
const reports = (fake: FakeApi) => fake.requests.filter((r) => r.path === "/agents/me/report").map((r) => r.body.nodes);
const publicKeyIn = (dir: string) => cli.keys.publicKeyOf(readFileSync(join(dir, "nodes", NODE, "private.key"), "utf8").trim());

describe("wgo gateway enrol", () => {
  it("trades the token for the credential and keeps it 0600 in the state directory", async () => {
    api = await startFakeApi({
      "POST /agents/enrol": () => ({ status: 201, body: { agent: AGENT, credential: "agc_new" } }),
    });
    const dir = mkdtempSync(join(tmpdir(), "wgo-gw-"));
    dirs.push(dir);
    const result = await runWgo(
      ["--api", api.url, "--json", "gateway", "enrol", "--token", "aet_once", "--name", "edge", "--state-dir", dir],
      { env: {} },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(api.requests[0]!.body).toMatchObject({ token: "aet_once", name: "edge" });
    expect(statSync(join(dir, "agent.json")).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, "agent.json"), "utf8"))).toMatchObject({
      credential: "agc_new",
      gatewayId: "gw_1",
      api: api.url,
    });
  });

  it("refuses a token of another agent kind", async () => {
    api = await startFakeApi({
      "POST /agents/enrol": () => ({
        status: 201,
        body: { agent: { ...AGENT, kind: "gateway-manager", gatewayId: null }, credential: "agc_x" },
      }),
    });
    const dir = mkdtempSync(join(tmpdir(), "wgo-gw-"));
    dirs.push(dir);
    const result = await runWgo(["--api", api.url, "gateway", "enrol", "--token", "aet_x", "--state-dir", dir], { env: {} });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/gateway-manager agent; `wgo gateway` needs a gateway-daemon token/);
  });
});

describe("wgo gateway run", () => {
  it("makes the node's key here, sends only the public half, brings the interface up with routes and forwarding, and reports", async () => {
    const {
      api: fake,
      dir,
      host,
      run,
    } = await setup({
      "GET /agents/me/desired-state": () => desired([entry({ publicKey: null, config: FIRST })]),
    });
    const result = await run(["run", "--once"]);
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(join(dir, "nodes", NODE, "private.key")).mode & 0o777).toBe(0o600);
    const claim = fake.requests.find((r) => r.method === "PUT")!;
    expect(claim.token).toBe("agc_secret");
    expect(claim.body).toEqual({ publicKey: publicKeyIn(dir), servesDns: false }); // no DNS server on this host
    const [ifname] = wgLinks(host);
    expect(ifname).toMatch(/^wgo[0-9a-f]{8}$/);
    const link = host.links.get(ifname!)!;
    // Inside its network's routing domain, not in the host's namespace.
    expect(link).toMatchObject({ ns: DOMAIN, up: true, addresses: ["10.60.0.1/24"] });
    expect(link.conf).toContain(`PrivateKey = ${readFileSync(join(dir, "nodes", NODE, "private.key"), "utf8").trim()}`);
    expect(host.routesOf(ifname!)).toEqual(["192.168.99.0/24"]);
    // Forwarding on, and no ICMP redirects from a node that forwards in and out of one interface (a relay).
    expect(host.sysctlsIn).toEqual([
      { ns: DOMAIN, setting: "net.ipv4.ip_forward=1" },
      { ns: DOMAIN, setting: "net.ipv4.conf.all.send_redirects=0" },
      { ns: DOMAIN, setting: `net.ipv4.conf.${ifname}.send_redirects=0` },
    ]);
    expect(reports(fake)).toEqual([
      [{ nodeId: NODE, appliedRoutingRevision: 4, appliedDnsRevision: null, peerReport: NO_PEERS, error: null }],
    ]);
  });

  it("holds the revision it applied, receives a delta and syncs it; a node that leaves is taken down and forgotten", async () => {
    const next = config(5, [
      { nodeId: "node_g2", address: "10.60.0.2", allowedIps: ["10.60.0.2/32", "192.168.99.0/24"] },
      { nodeId: "node_s", address: "10.60.0.9", allowedIps: ["10.60.0.9/32"] },
    ]);
    let step = 0;
    const polls: FakeRequest[] = [];
    const {
      api: fake,
      dir,
      host,
      run,
    } = await setup({
      "GET /agents/me/desired-state": (request) => {
        polls.push(request);
        step += 1;
        if (step === 1) return desired([entry({ publicKey: null, config: FIRST })]);
        if (step <= 3) return desired([entry({ publicKey: publicKeyIn(dir), delta: diffConfigs(FIRST, next) })]);
        return desired([]);
      },
    });
    expect((await run(["run", "--once"])).code).toBe(0);
    expect((await run(["run", "--once"])).code).toBe(0);
    expect(polls[1]!.query.get("held")).toBe(`${NODE}:4:0`);
    const ifname = wgLinks(host)[0]!;
    expect(host.wgVerbs).toEqual(["setconf", "syncconf"]);
    expect([...host.links.get(ifname)!.peers.keys()]).toHaveLength(2);
    expect(
      fake.requests.filter((r) => r.method === "PUT"),
      "the key is sent once",
    ).toHaveLength(1);
    expect(reports(fake).at(-1)![0].appliedRoutingRevision).toBe(5);

    // The same delta again no longer fits what is held: it is reported, and the next poll asks for a full config.
    expect((await run(["run", "--once"])).code).toBe(0);
    expect(reports(fake).at(-1)![0]).toMatchObject({ appliedRoutingRevision: 5, error: expect.stringMatching(/starts at revision 4/) });

    expect((await run(["run", "--once"])).code).toBe(0);
    expect(polls.at(-1)!.query.get("held"), "nothing held after the failed delta").toBeNull();
    expect(host.links.has(ifname)).toBe(false);
    expect(() => statSync(join(dir, "nodes", NODE))).toThrow();
  });

  it("does not touch the domain when the node's address is already on another interface there, and reports why", async () => {
    const {
      api: fake,
      host,
      run,
    } = await setup({
      "GET /agents/me/desired-state": () => desired([entry({ publicKey: null, config: FIRST })]),
    });
    host.namespaces.add(DOMAIN);
    host.links.set("eth9", {
      ns: DOMAIN,
      up: true,
      mtu: null,
      addresses: ["10.60.0.1/16"],
      conf: "",
      peers: new Map(),
      fwmark: null,
      dump: "",
    });
    expect((await run(["run", "--once"])).code).toBe(0);
    expect(wgLinks(host)).toEqual([]);
    expect(reports(fake)).toEqual([
      [
        {
          nodeId: NODE,
          appliedRoutingRevision: 0,
          appliedDnsRevision: null,
          peerReport: NO_PEERS,
          error: "address 10.60.0.1 is already on interface eth9; not applied",
        },
      ],
    ]);
  });

  it("stops with a clear message when the credential was revoked or rotated", async () => {
    const { run } = await setup({
      "GET /agents/me/desired-state": () => ({ status: 401, body: envelope("unauthorized", "Invalid agent credential") }),
    });
    const result = await run(["run"]);
    expect(result.code, "its own exit code, which systemd does not restart on").toBe(3);
    expect(result.json.at(-1).error.code).toBe("credential_refused");
    expect(result.json.at(-1).error.message).toMatch(
      /refused the agent credential \(401 unauthorized.*revoked or rotated; enrol again with `wgo gateway enrol`/,
    );
  });

  it("survives the API being down: keeps retrying, applies once it answers, and stops on SIGTERM", async () => {
    const signals = new EventEmitter();
    let polls = 0;
    const {
      api: fake,
      host,
      run,
    } = await setup({
      "GET /agents/me/desired-state": () => {
        polls += 1;
        if (polls === 1) return { status: 503, body: envelope("unavailable", "down for maintenance") };
        if (polls === 2) return desired([entry({ publicKey: null, config: FIRST })]);
        setTimeout(() => signals.emit("SIGTERM"), 10);
        return { status: 304, headers: { etag: '"e1"' } };
      },
    });
    const result = await run(["run"], signals);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/unreachable|503/);
    expect(result.json.at(-1)).toMatchObject({ stopped: true, applied: 1 });
    expect(wgLinks(host)).toHaveLength(1);
    expect(reports(fake).length).toBeGreaterThanOrEqual(1);
  });
});

describe("wgo gateway run: what the server refuses", () => {
  it("a node whose key the server refuses (409) gets that as its error; the other nodes are applied and the daemon goes on", async () => {
    const { wgQuick: _text, ...firstCore } = FIRST;
    const secondConfig = nodeConfig({
      ...firstCore,
      nodeId: "node_gw2",
      networkId: "net_2",
      interface: { ...FIRST.interface, address: "10.70.0.1/24" },
    });
    const second = { ...entry({ publicKey: null, config: secondConfig }), nodeId: "node_gw2", networkId: "net_2" };
    const {
      api: fake,
      host,
      run,
    } = await setup({
      "GET /agents/me/desired-state": () => desired([entry({ publicKey: null, config: FIRST }), second]),
      "PUT /agents/me/nodes/node_gw1": () => ({
        status: 409,
        body: envelope("conflict", "Node node_x already uses this public key in this network"),
      }),
      "PUT /agents/me/nodes/node_gw2": (request) => ({ status: 200, body: { id: "node_gw2", publicKey: request.body.publicKey } }),
    });
    const result = await run(["run", "--once"]);
    expect(result.code, result.stderr).toBe(0);
    expect(reports(fake)[0]).toEqual([
      expect.objectContaining({
        nodeId: NODE,
        appliedRoutingRevision: 0,
        error: expect.stringMatching(/refused this node's key: 409 conflict/),
      }),
      expect.objectContaining({ nodeId: "node_gw2", appliedRoutingRevision: 4, error: null }),
    ]);
    expect(wgLinks(host).map((name) => host.links.get(name)!.addresses)).toEqual([["10.70.0.1/24"]]);
  });

  it("waits out a 429 (Retry-After) and a report refused for a moved node, instead of exiting", async () => {
    const signals = new EventEmitter();
    let polls = 0;
    let reportsSeen = 0;
    const { run } = await setup({
      "GET /agents/me/desired-state": (): FakeAnswer => {
        polls += 1;
        if (polls === 1) return { status: 429, body: envelope("rate_limited", "slow down"), headers: { "retry-after": "1" } };
        if (polls === 2) return desired([entry({ publicKey: null, config: FIRST })]);
        setTimeout(() => signals.emit("SIGTERM"), 10);
        return { status: 304, headers: { etag: '"e1"' } };
      },
      "POST /agents/me/report": () => {
        reportsSeen += 1;
        return { status: 404, body: envelope("not_found", "Node node_gw1 on this gateway not found") };
      },
    });
    const result = await run(["run"], signals);
    expect(result.code, result.stderr).toBe(0);
    // Retry-After 1 plus up to half again (cli/retry-after.mjs).
    expect(result.stderr).toMatch(/busy \(slow down\); keeping what runs, retrying in 1\.[0-5] s/);
    expect(result.stderr).toMatch(/no report this round: Node node_gw1 on this gateway not found/);
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(reportsSeen).toBeGreaterThanOrEqual(1);
  });
});

describe("wgo gateway run: reports between polls and forwarding probes", () => {
  it("reports every --report-interval while the long poll waits, with the probes the server asked for", async () => {
    const signals = new EventEmitter();
    let polls = 0;
    const probes = [
      { target: "10.60.0.3", acrossNodeId: "node_g2" },
      { target: "10.60.0.9", acrossNodeId: "node_g5" },
    ];
    const { api: fake, run } = await setup(
      {
        "GET /agents/me/desired-state": async (): Promise<FakeAnswer> => {
          polls += 1;
          if (polls === 1) return desired([entry({ publicKey: null, config: FIRST, probes })]);
          // The long poll: nothing changes for a while; reports must not wait for it.
          await new Promise((resolve) => setTimeout(resolve, 2_500));
          signals.emit("SIGTERM");
          return { status: 304, headers: { etag: '"e1"' } };
        },
      },
      { unreachable: ["10.60.0.9"] },
    );
    const result = await run(["run", "--report-interval", "1"], signals);
    expect(result.code, result.stderr).toBe(0);
    const sent = reports(fake);
    expect(sent.length, "a report after the apply and about one a second while the poll waits").toBeGreaterThanOrEqual(3);
    expect(sent.at(-1)![0].probes).toEqual([
      { acrossNodeId: "node_g2", target: "10.60.0.3", ok: true },
      { acrossNodeId: "node_g5", target: "10.60.0.9", ok: false },
    ]);
  });

  it("polls again right after an apply, while the apply's report is still on its way (issue 27)", async () => {
    const signals = new EventEmitter();
    let polls = 0;
    let reportAnswered = 0;
    let secondPollAt = 0;
    const { run } = await setup({
      "POST /agents/me/report": async (request) => {
        // A slow report: the next long poll must not wait for it, or a failover made meanwhile waits too.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        reportAnswered ||= Date.now();
        return { status: 200, body: { nodes: request.body.nodes.map((n: { nodeId: string }) => ({ nodeId: n.nodeId })) } };
      },
      "GET /agents/me/desired-state": async (): Promise<FakeAnswer> => {
        polls += 1;
        if (polls === 1) return desired([entry({ publicKey: null, config: FIRST })]);
        secondPollAt ||= Date.now();
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        signals.emit("SIGTERM");
        return { status: 304, headers: { etag: '"e1"' } };
      },
    });
    const result = await run(["run", "--report-interval", "60"], signals);
    expect(result.code, result.stderr).toBe(0);
    expect(secondPollAt, "the second poll was made").toBeGreaterThan(0);
    expect(reportAnswered, "the apply's report was sent and answered").toBeGreaterThan(0);
    expect(secondPollAt, "the next poll went out before the report was answered").toBeLessThan(reportAnswered);
  });

  it("follows changes in a row by long poll: each lands within a second of its publication (issue 40)", { timeout: 10_000 }, async () => {
    const signals = new EventEmitter();
    let revision = 4;
    const configAt = (r: number) =>
      r === 4 ? FIRST : config(r, [{ nodeId: "node_g2", address: "10.60.0.2", allowedIps: ["10.60.0.2/32", `192.168.${r}.0/24`] }]);
    const { dir, host, run } = await setup({
      // The server's long poll: held while the agent's ETag is the current one, answered once the revision moves.
      "GET /agents/me/desired-state": async (request) => {
        const deadline = Date.now() + Number(request.query.get("wait") ?? 0) * 1000;
        while (request.headers["if-none-match"] === `"r${revision}"` && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        if (request.headers["if-none-match"] === `"r${revision}"`) return { status: 304, headers: { etag: `"r${revision}"` } };
        const claimed = request.query.has("held");
        const answer = desired([entry({ publicKey: claimed ? publicKeyIn(dir) : null, config: configAt(revision) })]);
        return { ...answer, headers: { etag: `"r${revision}"` } };
      },
    });
    const running = run(["run", "--report-interval", "60"], signals);
    const routesOfPeer = () => [...host.links.values()].flatMap((link) => link.peers.get(PEER_KEY)?.allowedIps ?? []);
    const delays: number[] = [];
    await new Promise((resolve) => setTimeout(resolve, 500)); // applied revision 4, in its long poll
    for (const next of [5, 6, 7]) {
      const published = Date.now();
      revision = next;
      while (!routesOfPeer().includes(`192.168.${next}.0/24`) && Date.now() - published < 2_000)
        await new Promise((r) => setTimeout(r, 10));
      delays.push(Date.now() - published);
      await new Promise((resolve) => setTimeout(resolve, 700));
    }
    signals.emit("SIGTERM");
    expect((await running).code).toBe(0);
    for (const delay of delays) expect(delay, `delays ${delays.join(", ")} ms`).toBeLessThan(1_000);
  });

  it("sends no probes field when the server asked for none, and refuses probe targets that are not addresses", async () => {
    const {
      api: fake,
      host,
      run,
    } = await setup({
      "GET /agents/me/desired-state": () =>
        desired([entry({ publicKey: null, config: FIRST, probes: [{ target: "-f 10.0.0.1", acrossNodeId: "node_g2" }] })]),
    });
    expect((await run(["run", "--once"])).code).toBe(0);
    expect(reports(fake)[0]![0]).not.toHaveProperty("probes");
    expect(host.calls.some((call) => call.includes("ping"))).toBe(false);
  });
});

describe("the daemon's stop signal", () => {
  it("keeps no abort listener from a finished request: the daemon passes it to every poll for as long as it runs", async () => {
    api = await startFakeApi({ "GET /agents/me/desired-state": () => ({ status: 304, headers: { etag: '"e0"' } }) });
    const stop = new AbortController();
    for (let poll = 0; poll < 12; poll += 1) {
      const answer = await cli.http.apiExchange({ api: api.url, method: "GET", path: "/agents/me/desired-state", signal: stop.signal });
      expect(answer.status).toBe(304);
    }
    expect(getEventListeners(stop.signal, "abort")).toHaveLength(0);
  });

  it("ends a backoff pause at once when the stop came before it (a SIGTERM during an apply), and leaves no listener after one", async () => {
    const stopped = new AbortController();
    stopped.abort();
    // Without the early return this waits out the whole minute (and the test times out).
    await cli.pause.pause(60_000, stopped.signal);
    const running = new AbortController();
    for (let i = 0; i < 12; i += 1) await cli.pause.pause(1, running.signal);
    expect(getEventListeners(running.signal, "abort")).toHaveLength(0);
  });
});

describe("wgo gateway status", () => {
  it("shows desired against applied revisions for each node it runs", async () => {
    const { run } = await setup({
      "GET /agents/me/desired-state": () => desired([entry({ publicKey: null, config: FIRST })]),
    });
    await run(["run", "--once"]);
    const result = await run(["status"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json[0]).toMatchObject({
      gatewayId: "gw_1",
      nodes: [{ nodeId: NODE, up: true, desired: { routing: 4, dns: 2 }, applied: { routing: 4, dns: null }, inSync: false, error: null }],
    });
  });

  it("shows the endpoint each peer is reached at (a NAT'd peer's address after its NAT)", async () => {
    const { host, run } = await setup({
      "GET /agents/me/desired-state": () => desired([entry({ publicKey: null, config: FIRST })]),
    });
    await run(["run", "--once"]);
    host.links.get(wgLinks(host)[0]!)!.dump =
      `priv\tpub\t51820\toff\n${PEER_KEY}\t(none)\t203.0.113.9:41641\t10.60.0.2/32\t0\t148\t92\toff\n`;
    const [status] = (await run(["status"])).json;
    expect(status.nodes[0].peers).toEqual([
      { publicKey: PEER_KEY, endpoint: "203.0.113.9:41641", lastHandshakeAt: null, rxBytes: 148, txBytes: 92, handshakeAgeSeconds: null },
    ]);
  });
});
