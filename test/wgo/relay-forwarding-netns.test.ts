// A relay under `wgo gateway run`, for real (wireguard-go, nftables, network namespaces): the relay node's
// interface lives in its network's routing domain (a namespace of its own) with the domain's nftables table
// and, in policy mode, the node's access table (input filter, and a forward chain for a routed destination it
// is a hop for). Two laptops A and B that cannot reach each other (no underlay route between them) each hold
// the other's address on the relay's peer entry, as the server hands out a relayed pair (docs/nat.md): A's
// ping to B goes in and out of the relay's one WireGuard interface and is answered. A second network on the
// same relay host, its own namespace, reaches nothing of the first: a laptop of it that aims at B's address
// through its relay gets no answer.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, runWgo } from "./support/cli.ts";
import { nodeConfig, type PeerConfig } from "./support/config-diff.ts";
import { type FakeApi, startFakeApi } from "./support/fake-api.ts";

const sh = (...args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: ["pipe", "pipe", "pipe"] }).toString();
const inNs = (ns: string, ...args: string[]) => sh("ip", "netns", "exec", ns, ...args);
const suffix = process.pid.toString(36);
const HOST = `rly-h-${suffix}`;
const LAPTOPS = { a: `rly-a-${suffix}`, b: `rly-b-${suffix}`, c: `rly-c-${suffix}` };
/** Underlay: each laptop on its own /24 to the relay host; the host does not forward between them. */
const UNDERLAY = { a: "10.98.1", b: "10.98.2", c: "10.98.3" };
const keys = Object.fromEntries(["a", "b", "c"].map((name) => [name, sh("wg", "genkey").trim()]));
const pub = (key: string) => execFileSync("wg", ["pubkey"], { input: key }).toString().trim();

const peer = (nodeId: string, address: string, publicKey: string): PeerConfig => ({
  nodeId,
  name: nodeId,
  address,
  publicKey,
  endpoint: null,
  allowedIps: [`${address}/32`],
  persistentKeepalive: null,
});

/** The relay node of net_1 (A and B its peers, in policy mode, a hop for 192.168.99.0/24 that its rules drop) and net_2's (C). */
const RELAY_1 = nodeConfig({
  nodeId: "node_r1",
  networkId: "net_1",
  routingRevision: 1,
  interface: { address: "10.60.0.1/24", listenPort: 51820, dns: [], dnsSearch: [] },
  peers: [peer("node_a", "10.60.0.2", pub(keys.a!)), peer("node_b", "10.60.0.3", pub(keys.b!))],
  routingIntent: [
    {
      policyId: "pol_1",
      name: "lan",
      destinationCidr: "192.168.99.0/24",
      path: ["node_r1", "node_x"],
      role: "transit",
      previousHop: null,
      nextHop: "node_x",
    },
  ],
  forwarding: true,
  accessRules: [{ from: ["10.60.0.0/24"], ports: ["icmp"] }],
  forwardRules: [{ action: "drop", from: ["10.60.0.0/24"], to: ["192.168.99.0/24"], ports: ["*"], rule: 1 }],
});
const RELAY_2 = nodeConfig({
  nodeId: "node_r2",
  networkId: "net_2",
  routingRevision: 1,
  interface: { address: "10.60.0.1/24", listenPort: 51821, dns: [], dnsSearch: [] },
  peers: [peer("node_c", "10.60.0.5", pub(keys.c!))],
  routingIntent: [],
  forwarding: true,
});

let api: FakeApi;
/** What `wgo gateway run --once` printed: a node it could not apply is reported there, and it still exits 0. */
let runOutput = "";
const dir = mkdtempSync(join(tmpdir(), "wgo-relay-"));
const bin = mkdtempSync(join(tmpdir(), "wgo-relay-bin-"));
const relayKeys = new Map<string, string>();
/** The tools the agent runs, and no DNS server: this host serves no zone (knot is tested in test/e2e/gateway). */
const env = { PATH: bin };
const wgo = (...args: string[]) => runWgo(["--json", "gateway", ...args, "--state-dir", dir, "--netns", HOST], { env });

/** A laptop: wireguard-go in its namespace, the relay as its one peer, carrying `through` too (the relayed pair's addresses). */
function laptop(name: "a" | "b" | "c", address: string, relayPort: number, through: string[]) {
  const ns = LAPTOPS[name];
  inNs(ns, "wireguard-go", `wg${name}`);
  const file = join(dir, `${name}.key`);
  writeFileSync(file, keys[name]!, { mode: 0o600 });
  inNs(ns, "wg", "set", `wg${name}`, "private-key", file);
  const relay = relayKeys.get(name === "c" ? "node_r2" : "node_r1")!;
  inNs(
    ns,
    "wg",
    "set",
    `wg${name}`,
    "peer",
    relay,
    "endpoint",
    `${UNDERLAY[name]}.1:${relayPort}`,
    "allowed-ips",
    ["10.60.0.1/32", ...through].join(","),
    "persistent-keepalive",
    "1",
  );
  inNs(ns, "ip", "address", "add", `${address}/24`, "dev", `wg${name}`);
  inNs(ns, "ip", "link", "set", `wg${name}`, "up");
}

/** The agent's PUT of a relay node's public key: the laptops need it for their peer entry. */
function claim(nodeId: string, publicKey: string) {
  relayKeys.set(nodeId, publicKey);
  return { status: 200, body: {} };
}

const pings = (ns: string, target: string) => {
  try {
    inNs(ns, "ping", "-c", "3", "-i", "0.3", "-W", "1", target);
    return true;
  } catch {
    return false;
  }
};

describe("a relay under wgo gateway run", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    for (const tool of ["ip", "wg", "wireguard-go", "nft", "sysctl", "sh", "cat", "test", "ping"])
      symlinkSync(sh("sh", "-c", `command -v ${tool}`).trim(), join(bin, tool));
    sh("ip", "netns", "add", HOST);
    inNs(HOST, "ip", "link", "set", "lo", "up");
    for (const [name, ns] of Object.entries(LAPTOPS)) {
      sh("ip", "netns", "add", ns);
      sh("ip", "link", "add", `rly${name}${suffix}`.slice(0, 15), "netns", HOST, "type", "veth", "peer", "name", "up0", "netns", ns);
      inNs(HOST, "ip", "address", "add", `${UNDERLAY[name as "a"]}.1/24`, "dev", `rly${name}${suffix}`.slice(0, 15));
      inNs(HOST, "ip", "link", "set", `rly${name}${suffix}`.slice(0, 15), "up");
      inNs(ns, "ip", "address", "add", `${UNDERLAY[name as "a"]}.2/24`, "dev", "up0");
      inNs(ns, "ip", "link", "set", "up0", "up");
      inNs(ns, "ip", "link", "set", "lo", "up");
    }
    const entry = (config: typeof RELAY_1) => ({
      networkId: config.networkId,
      nodeId: config.nodeId,
      address: "10.60.0.1",
      servesDns: false,
      dns: { domain: "lab.internal", revision: 1 },
      publicKey: relayKeys.get(config.nodeId) ?? null,
      config,
    });
    api = await startFakeApi({
      "PUT /agents/me/nodes/node_r1": (request) => claim("node_r1", request.body.publicKey),
      "PUT /agents/me/nodes/node_r2": (request) => claim("node_r2", request.body.publicKey),
      "POST /agents/me/report": (request) => ({
        status: 200,
        body: { nodes: request.body.nodes.map((n: { nodeId: string }) => ({ nodeId: n.nodeId })) },
      }),
      "GET /agents/me/desired-state": () => ({ status: 200, body: { gatewayId: "gw_1", nodes: [entry(RELAY_1), entry(RELAY_2)] } }),
    });
    writeFileSync(
      join(dir, "agent.json"),
      JSON.stringify({ api: api.url, agentId: "agt_1", gatewayId: "gw_1", name: "relay", credential: "agc_secret" }),
      { mode: 0o600 },
    );
    const run = await wgo("run", "--once");
    runOutput = `${run.stdout}\n${run.stderr}`;
    expect(run.code, run.stderr).toBe(0);
    laptop("a", "10.60.0.2", 51820, ["10.60.0.3/32"]);
    laptop("b", "10.60.0.3", 51820, ["10.60.0.2/32"]);
    laptop("c", "10.60.0.5", 51821, ["10.60.0.0/24"]); // net_2's laptop aims at all of net_1's addresses
  }, 60_000);

  afterAll(async () => {
    // Every step on its own: a setup that failed half-way leaves some of it, and the rest must still go.
    const quietly = (step: () => unknown) => {
      try {
        return step();
      } catch {
        return undefined;
      }
    };
    await wgo("down").catch(() => undefined);
    // Deleting a link ends its wireguard-go; deleting the namespace alone would leave the process running.
    for (const [name, ns] of Object.entries(LAPTOPS)) quietly(() => inNs(ns, "ip", "link", "del", `wg${name}`));
    for (const ns of [...Object.values(LAPTOPS), HOST, ...["net_1", "net_2"].map((id) => cli.domains.domainNames(HOST, id).netns)]) {
      quietly(() => sh("ip", "netns", "del", ns));
    }
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(bin, { recursive: true, force: true });
  }, 30_000);

  it("forwards a relayed pair in and out of its network's one interface, through the domain's and the access tables", async () => {
    const domain = cli.domains.domainNames(HOST, "net_1").netns;
    const ifname = `wgo${createHash("sha256").update("node_r1").digest("hex").slice(0, 8)}`; // cli/gateway/node-apply.mjs interfaceFor
    expect(inNs(domain, "nft", "list", "tables"), runOutput).toContain(`table inet ${cli.accessFilter.accessTable(ifname)}`);
    expect(pings(LAPTOPS.a, "10.60.0.1"), "A reaches the relay itself").toBe(true);
    expect(pings(LAPTOPS.a, "10.60.0.3"), "A reaches B through the relay").toBe(true);
    expect(pings(LAPTOPS.b, "10.60.0.2"), "and B reaches A").toBe(true);
    expect(inNs(domain, "sysctl", "-n", "net.ipv4.ip_forward").trim()).toBe("1");
    // Forwarded out of the interface it came in on, yet no "reach it directly" redirect to A: A cannot.
    const icmp = inNs(domain, "grep", "^Icmp:", "/proc/net/snmp").trim().split("\n");
    const [names, values] = icmp.map((line) => line.split(/\s+/));
    expect(Number(values![names!.indexOf("OutRedirects")])).toBe(0);
  });

  it("forwards nothing between two networks' domains: net_2's laptop gets no answer from net_1's addresses", async () => {
    expect(pings(LAPTOPS.c, "10.60.0.1"), "C reaches its own relay node").toBe(true);
    const bBefore = inNs(LAPTOPS.b, "wg", "show", "wgb", "transfer");
    expect(pings(LAPTOPS.c, "10.60.0.3")).toBe(false);
    expect(pings(LAPTOPS.c, "10.60.0.2")).toBe(false);
    // B's tunnel carried only its own keepalives meanwhile (1 s each, 32 bytes a packet): no echo reached it.
    const received = (text: string) => Number(text.trim().split(/\s+/)[1]);
    expect(received(inNs(LAPTOPS.b, "wg", "show", "wgb", "transfer")) - received(bBefore)).toBeLessThan(32 * 20);
  });
});
