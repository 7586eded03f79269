// The gateway agent's routing domains: what it plans (namespace names, link subnets, who may send which
// egress destination to the host, the nftables rulesets) and what a run leaves on a simulated host with two
// tenants' networks. The real kernel (namespaces, veths, nftables, wireguard-go) is in
// test/e2e/gateway/shared-gateway-tenancy.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, runWgo } from "./support/cli.ts";
import { nodeConfig } from "./support/config-diff.ts";
import { type FakeApi, type FakeRequest, startFakeApi } from "./support/fake-api.ts";
import { fakeHost } from "./support/fake-system.ts";

const { domainNames, chooseLinkSubnet, resolveEgressClaims, hostRuleset, domainRuleset } = cli.domains;

describe("routing domain planning", () => {
  it("names a network's namespace and veths after its id, beside the --netns that plays the host", () => {
    const plain = domainNames(null, "net_a");
    expect(plain).toEqual(domainNames(null, "net_a"));
    expect(plain.netns).toMatch(/^wgo-n[0-9a-f]{8}$/);
    expect(plain.hostIf).toMatch(/^wgoh[0-9a-f]{8}$/);
    expect(plain.nsIf).toMatch(/^wgon[0-9a-f]{8}$/);
    expect(domainNames(null, "net_b").netns).not.toBe(plain.netns);
    expect(domainNames("lab-g1", "net_a").netns).toBe(`lab-g1-n${plain.netns.slice(-8)}`);
  });

  it("picks a stable /30 link subnet per network and steps past what is taken", () => {
    const first = chooseLinkSubnet("net_a", []);
    expect(first.v4).toMatch(/^169\.254\.\d+\.\d+\/30$/);
    expect(chooseLinkSubnet("net_a", [])).toEqual(first);
    expect(first.hostV4.split("/")[0]).not.toBe(first.nsV4.split("/")[0]);
    const moved = chooseLinkSubnet("net_a", [first.v4]);
    expect(moved.v4).not.toBe(first.v4);
    // A host address's subnet that contains the slot counts as taken too.
    const wide = cli.cidr.canonicalPrefix(`${first.hostV4.split("/")[0]}/24`);
    expect(cli.cidr.covers(wide, chooseLinkSubnet("net_a", [wide]).v4)).toBe(false);
  });

  it("grants each network its egress destinations unless another network wants or holds an overlapping one", () => {
    const lanA = "192.168.71.0/24";
    const lanB = "192.168.72.0/24";
    expect(resolveEgressClaims({}, { a: [lanA], b: [lanB] })).toEqual({ granted: { a: [lanA], b: [lanB] }, denied: { a: [], b: [] } });
    // Both new and overlapping: nobody gets it (fail closed).
    expect(resolveEgressClaims({}, { a: [lanA], b: ["192.168.71.128/25"] })).toEqual({
      granted: { a: [], b: [] },
      denied: { a: [lanA], b: ["192.168.71.128/25"] },
    });
    // A holds it already: a newcomer asking for the same, a part of it, or everything is refused; A keeps it.
    for (const claim of [lanA, "192.168.71.7/32", "0.0.0.0/0"]) {
      expect(resolveEgressClaims({ a: [lanA] }, { a: [lanA], b: [claim, lanB] })).toEqual({
        granted: { a: [lanA], b: [lanB] },
        denied: { a: [], b: [claim] },
      });
    }
    // Once the holder stops routing it, the other network gets it on the next round.
    expect(resolveEgressClaims({ a: [lanA] }, { a: [], b: [lanA] }).granted).toEqual({ a: [], b: [lanA] });
  });

  it("the host's table lets a veth reach only its own granted destinations, never another veth or the host", () => {
    const text = hostRuleset([
      { hostIf: "wgohbbbbbbbb", granted: ["192.168.72.0/24", "fd72::/64"] },
      { hostIf: "wgohaaaaaaaa", granted: ["10.0.0.0/8", "10.1.0.0/16", "192.168.71.0/24"] },
      { hostIf: "wgohcccccccc", granted: [] },
    ]);
    expect(text).toContain(`iifname "wgoh*" oifname "wgoh*" drop`);
    expect(text).toContain(`oifname "wgoh*" ct state established,related accept\n    oifname "wgoh*" drop`);
    // 10.1.0.0/16 is inside 10.0.0.0/8: one set element (nft refuses overlapping ones).
    expect(text).toContain(`iifname "wgohaaaaaaaa" ip daddr { 10.0.0.0/8, 192.168.71.0/24 } accept`);
    expect(text).toContain(`iifname "wgohbbbbbbbb" ip daddr { 192.168.72.0/24 } accept`);
    expect(text).toContain(`iifname "wgohbbbbbbbb" ip6 daddr { fd72::/64 } accept`);
    expect(text).not.toMatch(/wgohcccccccc/);
    expect(text.indexOf(`iifname "wgoh*" drop`)).toBeGreaterThan(text.indexOf("wgohbbbbbbbb"));
    expect(text.slice(text.indexOf("chain input"))).toContain(`iifname "wgoh*" drop`);
    expect(domainRuleset("wgonaaaaaaaa")).toContain(`oifname "wgonaaaaaaaa" masquerade`);
  });
});

const KEY = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=";
/** A gateway node of `networkId` at `address` that is the egress of `egress`. */
function gatewayEntry(nodeId: string, networkId: string, address: string, egress: string[], listenPort: number) {
  const config = nodeConfig({
    nodeId,
    networkId,
    routingRevision: 3,
    interface: { address, listenPort, dns: [], dnsSearch: [] },
    peers: [
      {
        nodeId: `${nodeId}_dev`,
        name: "dev",
        address: address.replace(/\.1\/24$/, ".2"),
        publicKey: KEY,
        endpoint: null,
        allowedIps: [address.replace(/\.1\/24$/, ".2/32")],
        persistentKeepalive: null,
      },
    ],
    routingIntent: egress.map((destinationCidr, i) => ({
      policyId: `pol_${nodeId}_${i}`,
      name: "lan",
      destinationCidr,
      path: [nodeId],
      role: "egress" as const,
      previousHop: null,
      nextHop: null,
    })),
    forwarding: true,
  });
  return {
    networkId,
    nodeId,
    address: address.split("/")[0],
    publicKey: null,
    servesDns: false,
    dns: { domain: "x.internal", revision: 1 },
    config,
  };
}

let api: FakeApi | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An enrolled agent whose desired state is `state()`, on a simulated host. */
async function gateway(state: () => unknown[]) {
  api = await startFakeApi({
    "GET /agents/me/desired-state": () => ({ status: 200, body: { gatewayId: "gw_1", nodes: state() }, headers: { etag: '"e"' } }),
    ...Object.fromEntries(
      ["node_a", "node_b"].map((id) => [
        `PUT /agents/me/nodes/${id}`,
        (request: FakeRequest) => ({ status: 200, body: { id, publicKey: request.body.publicKey } }),
      ]),
    ),
    "POST /agents/me/report": (request) => ({
      status: 200,
      body: { nodes: request.body.nodes.map((n: { nodeId: string }) => ({ nodeId: n.nodeId })) },
    }),
  });
  const dir = mkdtempSync(join(tmpdir(), "wgo-gwd-"));
  dirs.push(dir);
  writeFileSync(
    join(dir, "agent.json"),
    JSON.stringify({ api: api.url, agentId: "agt_1", gatewayId: "gw_1", name: "edge", credential: "agc_x" }),
    {
      mode: 0o600,
    },
  );
  const host = fakeHost();
  const wgo = (args: string[]) => runWgo(["--json", "gateway", ...args, "--state-dir", dir], { createSystem: host.createSystem, env: {} });
  const reports = () => api!.requests.filter((r) => r.path === "/agents/me/report").map((r) => r.body.nodes);
  return { host, wgo, reports, dir };
}

const A = domainNames(null, "net_a");
const B = domainNames(null, "net_b");
const hostTable = (host: ReturnType<typeof fakeHost>) => host.nftTables.get(" wgo_gateway") ?? "";

describe("wgo gateway run with two tenants' networks on one host", () => {
  it("puts each network's node in its own namespace with its own veth, routes and table entries", async () => {
    const nodes = [
      gatewayEntry("node_a", "net_a", "10.71.0.1/24", ["192.168.71.0/24"], 51820),
      gatewayEntry("node_b", "net_b", "10.72.0.1/24", ["192.168.72.0/24"], 51821),
    ];
    const { host, wgo, reports } = await gateway(() => nodes);
    const result = await wgo(["run", "--once"]);
    expect(result.code, result.stderr).toBe(0);
    expect([...host.namespaces].sort()).toEqual([A.netns, B.netns].sort());
    const ifA = [...host.links].find(([, l]) => l.addresses.includes("10.71.0.1/24"))!;
    const ifB = [...host.links].find(([, l]) => l.addresses.includes("10.72.0.1/24"))!;
    expect(ifA[1].ns).toBe(A.netns);
    expect(ifB[1].ns).toBe(B.netns);
    expect(host.links.get(A.hostIf)!.ns).toBe("");
    expect(host.links.get(A.nsIf)!.ns).toBe(A.netns);
    expect(host.links.get(A.hostIf)!.addresses[0]).not.toBe(host.links.get(B.hostIf)!.addresses[0]);
    // Egress routes live in each namespace, via that network's link, and only for its own destinations.
    const viaLink = (nsIf: string) => host.routes.filter((r) => r.dev === nsIf && r.proto === "boot").map((r) => r.dst);
    expect(viaLink(A.nsIf)).toEqual(["192.168.71.0/24"]);
    expect(viaLink(B.nsIf)).toEqual(["192.168.72.0/24"]);
    expect(hostTable(host)).toContain(`iifname "${A.hostIf}" ip daddr { 192.168.71.0/24 } accept`);
    expect(hostTable(host)).toContain(`iifname "${B.hostIf}" ip daddr { 192.168.72.0/24 } accept`);
    expect(host.nftTables.get(`${A.netns} wgo_domain`)).toContain(`oifname "${A.nsIf}" masquerade`);
    expect(host.sysctlsIn).toContainEqual({ ns: "", setting: "net.ipv4.ip_forward=1" });
    expect(reports()[0].map((n: { error: string | null }) => n.error)).toEqual([null, null]);
  });

  it("refuses a newcomer's egress overlapping a destination another network holds, as that node's error", async () => {
    const a = gatewayEntry("node_a", "net_a", "10.71.0.1/24", ["192.168.71.0/24"], 51820);
    const b = gatewayEntry("node_b", "net_b", "10.72.0.1/24", ["192.168.72.0/24", "192.168.71.0/25"], 51821);
    let nodes = [a];
    const { host, wgo, reports } = await gateway(() => nodes);
    expect((await wgo(["run", "--once"])).code).toBe(0);
    nodes = [a, b];
    expect((await wgo(["run", "--once"])).code).toBe(0);
    const last = reports().at(-1)!;
    expect(last.find((n: { nodeId: string }) => n.nodeId === "node_a").error).toBeNull();
    expect(last.find((n: { nodeId: string }) => n.nodeId === "node_b").error).toMatch(
      /egress to 192\.168\.71\.0\/25 refused on this gateway: another network served here routes an overlapping destination/,
    );
    expect(hostTable(host)).toContain(`iifname "${A.hostIf}" ip daddr { 192.168.71.0/24 } accept`);
    expect(hostTable(host)).toContain(`iifname "${B.hostIf}" ip daddr { 192.168.72.0/24 } accept`);
    expect(host.routes.filter((r) => r.dev === B.nsIf && r.proto === "boot").map((r) => r.dst)).toEqual(["192.168.72.0/24"]);
  });

  it("a holder whose config is briefly missing (a delta that did not fit) keeps its claim", async () => {
    const a = gatewayEntry("node_a", "net_a", "10.71.0.1/24", ["192.168.71.0/24"], 51820);
    const b = gatewayEntry("node_b", "net_b", "10.72.0.1/24", ["192.168.71.0/24"], 51821);
    const misfit = {
      ...a,
      config: undefined,
      delta: { nodeId: "node_a", networkId: "net_a", fromRevision: 99, routingRevision: 100, peersUpserted: [], peersRemoved: [] },
    };
    let nodes: unknown[] = [a];
    const { host, wgo, reports } = await gateway(() => nodes);
    expect((await wgo(["run", "--once"])).code).toBe(0);
    nodes = [misfit, b];
    expect((await wgo(["run", "--once"])).code).toBe(0);
    const last = reports().at(-1)!;
    expect(last.find((n: { nodeId: string }) => n.nodeId === "node_a").error).toMatch(/starts at revision/);
    expect(last.find((n: { nodeId: string }) => n.nodeId === "node_b").error).toMatch(/egress to 192\.168\.71\.0\/24 refused/);
    expect(hostTable(host)).toContain(`iifname "${A.hostIf}" ip daddr { 192.168.71.0/24 } accept`);
    expect(hostTable(host)).not.toContain(`iifname "${B.hostIf}" ip daddr`);
  });

  it("moves a node set up in the host's namespace (the layout before domains) into its network's, and `down` removes it all", async () => {
    const nodes = [gatewayEntry("node_a", "net_a", "10.71.0.1/24", ["192.168.71.0/24"], 51820)];
    const { host, wgo, dir } = await gateway(() => nodes);
    expect((await wgo(["run", "--once"])).code).toBe(0);
    const [ifname, link] = [...host.links].find(([, l]) => l.addresses.includes("10.71.0.1/24"))!;
    // What an older agent left: the interface in the host's namespace, its record saying so.
    link.ns = "";
    const recordPath = join(dir, "nodes", "node_a", "node.json");
    const record = JSON.parse((await import("node:fs")).readFileSync(recordPath, "utf8"));
    writeFileSync(recordPath, JSON.stringify({ ...record, netns: null }));
    expect((await wgo(["run", "--once"])).code).toBe(0);
    expect(host.links.get(ifname)).toMatchObject({ ns: A.netns, addresses: ["10.71.0.1/24"] });
    expect(host.wgVerbs, "taken down in the host and set up anew in the domain").toEqual(["setconf", "setconf"]);

    const down = await wgo(["down"]);
    expect(down.code, down.stderr).toBe(0);
    expect(down.json[0]).toEqual({ nodes: ["node_a"], namespaces: [A.netns] });
    expect(host.namespaces.size).toBe(0);
    expect([...host.links.keys()]).toEqual([]);
    expect(hostTable(host)).toBe("");
    // `run` brings it back from the keys and configs kept.
    expect((await wgo(["run", "--once"])).code).toBe(0);
    expect(host.links.get(ifname)).toMatchObject({ ns: A.netns, up: true });
  });
});
