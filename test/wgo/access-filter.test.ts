// The access filter wgo loads with nftables (cli/access-filter.mjs): its text, then the real kernel
// (network namespaces, a veth named like the WireGuard interface, nft) admitting what the rules allow and
// dropping the rest, replies included. With WireGuard and the server's rules: test/e2e/access.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";

const { accessRuleset, removeAccessRuleset, accessTable, enforceAccess } = cli.accessFilter;

/** Both families, port ranges, "*", "other", a deny before a broader accept. */
const example = () =>
  accessRuleset({
    iface: "wg-lab.0",
    accessRules: [
      { from: ["10.99.0.1/32", "fd99::1/128"], ports: ["tcp:443", "tcp:8000-8080", "icmp"] },
      { from: ["10.99.0.3/32"], ports: ["*"] },
    ],
    forwardRules: [
      { action: "drop", from: ["10.99.0.1/32"], to: ["192.168.99.128/25"], ports: ["*"], rule: 2 },
      { action: "accept", from: ["10.99.0.1/32"], to: ["192.168.99.0/24"], ports: ["udp:53", "other"], rule: 0 },
    ],
    destinations: ["192.168.99.0/24"],
  });

describe("access ruleset text", () => {
  it("admits each rule's sources on its ports, replies, and drops the rest; forwards only what the rules accept", () => {
    const text = example();
    expect(accessTable("wg-lab.0")).toBe("wgo_access_wg_lab_0");
    // The first rule's comment marks the rules loaded (a digest of the chains): an unchanged ruleset is not reloaded.
    expect(text.replace(/comment "wgo [0-9a-f]{16}"/, 'comment "wgo D"')).toBe(`table inet wgo_access_wg_lab_0 {}
delete table inet wgo_access_wg_lab_0
table inet wgo_access_wg_lab_0 {
  chain input {
    type filter hook input priority filter; policy accept;
    iifname != "wg-lab.0" accept comment "wgo D"
    ct state established,related accept
    ip saddr { 10.99.0.1/32 } meta l4proto icmp accept
    ip saddr { 10.99.0.1/32 } tcp dport { 443, 8000-8080 } accept
    ip6 saddr { fd99::1/128 } meta l4proto ipv6-icmp accept
    ip6 saddr { fd99::1/128 } tcp dport { 443, 8000-8080 } accept
    ip saddr { 10.99.0.3/32 } accept
    counter drop comment "no rule allows it"
  }
  chain forward {
    type filter hook forward priority filter; policy accept;
    iifname != "wg-lab.0" accept
    ct state established,related accept
    ip saddr { 10.99.0.1/32 } ip daddr { 192.168.99.128/25 } counter drop comment "rules.2"
    ip saddr { 10.99.0.1/32 } ip daddr { 192.168.99.0/24 } udp dport { 53 } counter accept comment "rules.0"
    ip saddr { 10.99.0.1/32 } ip daddr { 192.168.99.0/24 } meta l4proto != { tcp, udp, icmp } counter accept comment "rules.0"
    ip daddr { 192.168.99.0/24 } counter drop comment "no rule allows it"
  }
}
`);
    expect(removeAccessRuleset("wg0")).toBe("table inet wgo_access_wg0 {}\ndelete table inet wgo_access_wg0\n");
  });

  it("marks each ruleset by its rules: the same rules the same mark, a changed rule another", () => {
    const mark = (text: string) => /comment "(wgo [0-9a-f]+)"/.exec(text)?.[1];
    expect(mark(example())).toBe(mark(example()));
    const other = accessRuleset({ iface: "wg-lab.0", accessRules: [{ from: ["10.99.0.1/32"], ports: ["tcp:444"] }] });
    expect(mark(other)).toMatch(/^wgo [0-9a-f]{16}$/);
    expect(mark(other)).not.toBe(mark(example()));
  });
});

const sh = (...args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: ["pipe", "pipe", "pipe"] }).toString();
const inNs = (ns: string, ...args: string[]) => sh("ip", "netns", "exec", ns, ...args);
const suffix = process.pid.toString(36);
const [client, server] = [`acc-c-${suffix}`, `acc-s-${suffix}`];
const IFACE = "wgacc0";

/** Whether `from` completes a TCP connection to host:port within 2 s. */
function connects(from: string, host: string, port: number): boolean {
  const probe = `const s=require("net").connect(${port},"${host}");s.setTimeout(2000);s.on("connect",()=>process.exit(0));s.on("timeout",()=>process.exit(1));s.on("error",()=>process.exit(1))`;
  try {
    inNs(from, process.execPath, "-e", probe);
    return true;
  } catch {
    return false;
  }
}

const pings = (from: string, host: string) => {
  try {
    inNs(from, "ping", "-c1", "-W1", host);
    return true;
  } catch {
    return false;
  }
};

describe("access ruleset in the kernel", () => {
  const listeners: ReturnType<typeof spawn>[] = [];
  beforeAll(() => {
    for (const ns of [client, server]) sh("ip", "netns", "add", ns);
    sh("ip", "link", "add", "accc0", "netns", client, "type", "veth", "peer", "name", IFACE, "netns", server);
    inNs(client, "ip", "addr", "add", "10.98.0.1/24", "dev", "accc0");
    inNs(server, "ip", "addr", "add", "10.98.0.2/24", "dev", IFACE);
    for (const [ns, dev] of [
      [client, "accc0"],
      [server, IFACE],
      [client, "lo"],
      [server, "lo"],
    ] as const)
      inNs(ns, "ip", "link", "set", dev, "up");
    for (const port of [443, 22]) {
      listeners.push(
        spawn("ip", ["netns", "exec", server, process.execPath, "-e", `require("net").createServer(s=>s.end("ok")).listen(${port})`]),
      );
    }
    execFileSync("ip", ["netns", "exec", server, "nft", "-f", "-"], {
      input: accessRuleset({ iface: IFACE, accessRules: [{ from: ["10.98.0.1/32"], ports: ["tcp:443"] }] }),
    });
  });
  afterAll(() => {
    for (const listener of listeners) listener.kill();
    for (const ns of [client, server]) execFileSync("ip", ["netns", "del", ns], { stdio: "ignore" });
  });

  it("lets the allowed port through and drops another port and ping; removing the table opens it again", async () => {
    // nft itself accepts the full example (both families, forward chain), checked without loading it.
    execFileSync("ip", ["netns", "exec", server, "nft", "-c", "-f", "-"], { input: example().replaceAll("wg-lab.0", IFACE) });
    await new Promise((resolve) => setTimeout(resolve, 500)); // the listeners start
    expect(connects(client, "10.98.0.2", 443)).toBe(true);
    expect(connects(client, "10.98.0.2", 22)).toBe(false);
    expect(pings(client, "10.98.0.2")).toBe(false);
    // The server may still start connections out: the replies come back in as established.
    expect(pings(server, "10.98.0.1")).toBe(true);
    const counters = inNs(server, "nft", "list", "chain", "inet", accessTable(IFACE), "input");
    expect(counters).toMatch(/counter packets [1-9]\d* bytes \d+ drop comment "no rule allows it"/);
    execFileSync("ip", ["netns", "exec", server, "nft", "-f", "-"], { input: removeAccessRuleset(IFACE) });
    expect(connects(client, "10.98.0.2", 22)).toBe(true);
    expect(pings(client, "10.98.0.2")).toBe(true);
  }, 60_000);

  it("re-applying unchanged rules keeps the table and its counters; changed rules, a flush or a hand edit load again", async () => {
    const sys = cli.system.createSystem({ netns: server });
    const dir = mkdtempSync(join(tmpdir(), "wgo-acc-"));
    const dropped = () => {
      const listed = inNs(server, "nft", "list", "chain", "inet", accessTable(IFACE), "input");
      return Number(/counter packets (\d+) bytes \d+ drop comment "no rule allows it"/.exec(listed)?.[1]);
    };
    try {
      const config = { accessRules: [{ from: ["10.98.0.1/32"], ports: ["tcp:443"] }] };
      expect(await enforceAccess(sys, dir, IFACE, config, false)).toBe(true);
      expect(pings(client, "10.98.0.2")).toBe(false);
      expect(dropped()).toBeGreaterThan(0);
      const counted = dropped();
      // A config revision that leaves the rules as they were (a peer's endpoint moved): the counters stay.
      await enforceAccess(sys, dir, IFACE, config, true);
      expect(dropped()).toBe(counted);
      // A changed rule loads the new table (ping allowed now), its counters from zero.
      await enforceAccess(sys, dir, IFACE, { accessRules: [{ from: ["10.98.0.1/32"], ports: ["icmp"] }] }, true);
      expect(pings(client, "10.98.0.2")).toBe(true);
      expect(dropped()).toBe(0);
      // Someone flushed the ruleset: the next apply sees no table and loads it, though wgo held one.
      inNs(server, "nft", "flush", "ruleset");
      await enforceAccess(sys, dir, IFACE, config, true);
      expect(pings(client, "10.98.0.2")).toBe(false);
      // The mark alone is not trusted: a flushed chain (policy accept: open) or a rule added by hand loads again.
      const table = accessTable(IFACE);
      inNs(server, "nft", "flush", "chain", "inet", table, "input");
      expect(pings(client, "10.98.0.2")).toBe(true);
      await enforceAccess(sys, dir, IFACE, config, true);
      expect(pings(client, "10.98.0.2")).toBe(false);
      inNs(server, "nft", "insert", "rule", "inet", table, "input", "accept");
      expect(pings(client, "10.98.0.2")).toBe(true);
      await enforceAccess(sys, dir, IFACE, config, true);
      expect(pings(client, "10.98.0.2")).toBe(false);
    } finally {
      execFileSync("ip", ["netns", "exec", server, "nft", "-f", "-"], { input: removeAccessRuleset(IFACE) });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("access filters across config deltas in wgo", () => {
  const held = {
    nodeId: "node_a",
    networkId: "net_a",
    routingRevision: 4,
    interface: { address: "10.98.0.2/24", listenPort: null, dns: [], dnsSearch: [] },
    peers: [],
    routingIntent: [],
    forwarding: false,
    accessRules: [{ from: ["10.98.0.1/32"], ports: ["tcp:443"] }],
  };
  const delta = (rest: object) => ({
    nodeId: "node_a",
    networkId: "net_a",
    fromRevision: 4,
    routingRevision: 5,
    peersUpserted: [],
    peersRemoved: [],
    ...rest,
  });
  const { applyConfigDelta } = cli.configDelta;

  it("keeps the filter a delta does not mention, replaces a new one, and drops it on null (back to open)", () => {
    expect(applyConfigDelta(held, delta({})).accessRules).toEqual(held.accessRules);
    const replaced = [{ from: ["10.98.0.7/32"], ports: ["*"] }];
    expect(applyConfigDelta(held, delta({ accessRules: replaced })).accessRules).toEqual(replaced);
    const open = applyConfigDelta(held, delta({ accessRules: null, forwardRules: null }));
    expect("accessRules" in open).toBe(false);
    expect("forwardRules" in open).toBe(false);
  });
});
