// Applying configs to a simulated host: first apply makes the link (kernel, else wireguard-go) and uses setconf; a re-apply
// uses syncconf and resyncs addresses and routes; /0 goes through wg-quick's fwmark table; down removes it.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";
import { fakeHost } from "./support/fake-system.ts";

const KEY = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
const PEER = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=";
const text = (address: string, allowedIps: string[], extra = "") => `[Interface]
PrivateKey = ${KEY}
Address = ${address}
DNS = 10.77.0.53
${extra}
[Peer]
PublicKey = ${PEER}
AllowedIPs = ${allowedIps.join(", ")}
`;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(options = {}) {
  const host = fakeHost(options);
  const dir = mkdtempSync(join(tmpdir(), "wgo-if-"));
  dirs.push(dir);
  const apply = (config: string, method = "setconf") =>
    cli.iface.applyConfig({
      sys: host.createSystem({ netns: "ns1" }),
      ifname: "wg0",
      text: config,
      method,
      wgQuickPath: join(dir, "wg0.conf"),
      env: {},
    });
  return { host, dir, apply };
}

describe("applying a config with the setconf method", () => {
  it("uses the kernel's WireGuard link when this kernel has one, and starts no wireguard-go", async () => {
    const { host, apply } = setup({ kernelModule: true });
    expect((await apply(text("10.77.0.1/24", ["10.77.0.2/32"]))).action).toBe("created");
    expect(host.calls.some((call) => call.includes("wireguard-go"))).toBe(false);
    expect(host.links.get("wg0")).toMatchObject({ up: true, addresses: ["10.77.0.1/24"] });
    expect(host.wgVerbs).toEqual(["setconf"]);
  });

  it("tries the kernel's WireGuard, falls back to wireguard-go, setconf, addresses, link up, and routes only what the connected route does not cover", async () => {
    const { host, dir, apply } = setup();
    const result = await apply(
      text("10.77.0.1/24", ["10.77.0.2/32", "192.168.77.0/24"], "MTU = 1380\nPostUp = sysctl -q -w net.ipv4.ip_forward=1"),
    );
    expect(result.action).toBe("created");
    expect(host.calls[1]).toEqual(["ip", "netns", "exec", "ns1", "ip", "link", "add", "wg0", "type", "wireguard"]);
    expect(host.calls[2]).toEqual(["ip", "netns", "exec", "ns1", "wireguard-go", "wg0"]);
    expect(host.wgVerbs).toEqual(["setconf"]);
    const wg0 = host.links.get("wg0")!;
    expect(wg0).toMatchObject({ up: true, mtu: 1380, addresses: ["10.77.0.1/24"] });
    expect(wg0.conf).toBe(`[Interface]\nPrivateKey = ${KEY}\n[Peer]\nPublicKey = ${PEER}\nAllowedIPs = 10.77.0.2/32, 192.168.77.0/24\n`);
    expect(host.routesOf("wg0")).toEqual(["192.168.77.0/24"]);
    expect(host.sysctls).toEqual(["net.ipv4.ip_forward=1"]);
    expect(readdirSync(dir), "the stripped file with the private key is removed").toEqual([]);
    expect(
      host.calls.every((call) => call.slice(0, 4).join(" ") === "ip netns exec ns1"),
      "every command in the namespace",
    ).toBe(true);
  });

  it("re-applies with syncconf (not setconf, which drops sessions) and resyncs addresses and routes", async () => {
    const { host, apply } = setup();
    await apply(text("10.77.0.1/24", ["10.77.0.2/32", "192.168.77.0/24", "10.9.0.5/32"]));
    const result = await apply(text("10.77.0.9/24", ["10.77.0.2/32", "10.50.0.0/16", "10.9.0.5/32"]));
    expect(result.action).toBe("synced");
    expect(host.wgVerbs).toEqual(["setconf", "syncconf"]);
    expect(host.calls.filter((call) => call.includes("wireguard-go"))).toHaveLength(1);
    expect(host.links.get("wg0")!.addresses).toEqual(["10.77.0.9/24"]);
    expect(host.routesOf("wg0")).toEqual(["10.50.0.0/16", "10.9.0.5/32"]);
    const before = host.calls.length;
    await apply(text("10.77.0.9/24", ["10.77.0.2/32", "10.50.0.0/16", "10.9.0.5/32"]));
    const changes = host.calls.slice(before).filter((call) => /^(add|del)$/.test(call[6] ?? "") || /^(add|del)$/.test(call[7] ?? ""));
    expect(changes, "an unchanged config changes no address or route").toEqual([]);
  });

  it("a re-apply (a failover) moves traffic first: new routes, the peers, stale routes, forwarding, then the rest", async () => {
    const { host, apply } = setup();
    const forwarding = "PostUp = sysctl -q -w net.ipv4.ip_forward=1";
    await apply(text("10.77.0.1/24", ["10.77.0.2/32"], forwarding));
    const before = host.calls.length;
    await apply(text("10.77.0.1/24", ["10.77.0.2/32", "192.168.77.0/24"], forwarding));
    const commands = host.calls.slice(before).map((call) => call.slice(4, 8).join(" "));
    expect(commands).toEqual([
      "ip link show dev",
      // One read per family, the route a new AllowedIPs entry needs before the peers change (a member taking
      // over a hop forwards the moment the hops beside it send to it), then the peers.
      "ip -j -4 route",
      "ip -j -6 route",
      "ip -4 route add",
      expect.stringMatching(/^wg syncconf wg0 \/.*\.setconf$/),
      "wg show wg0 fwmark",
      "sysctl -q -w net.ipv4.ip_forward=1",
      "ip -j address show",
      "ip link set dev",
    ]);
    expect(host.routesOf("wg0")).toEqual(["192.168.77.0/24"]);
  });

  it("sends a /0 through wg-quick's fwmark table and rules, and takes them away again", async () => {
    const { host, apply } = setup();
    await apply(text("10.77.0.1/24", ["10.77.0.2/32", "0.0.0.0/0"]));
    expect(host.links.get("wg0")!.fwmark).toBe(51820);
    expect(host.routesOf("wg0")).toEqual([]);
    expect(host.routesOf("wg0", "51820")).toEqual(["0.0.0.0/0"]);
    expect(host.rules).toEqual(["-4 not fwmark 51820 table 51820", "-4 table main suppress_prefixlength 0"]);
    expect(host.sysctls).toContain("net.ipv4.conf.all.src_valid_mark=1");

    await apply(text("10.77.0.1/24", ["10.77.0.2/32", "0.0.0.0/0"]));
    expect(host.rules, "re-applying does not duplicate the rules").toHaveLength(2);
    await apply(text("10.77.0.1/24", ["10.77.0.2/32"]));
    expect(host.routesOf("wg0", "51820")).toEqual([]);
    expect(host.rules).toEqual([]);
  });

  it("removes a new interface again when configuring it fails", async () => {
    const { host, apply } = setup({ refuseWgConfig: true });
    await expect(apply(text("10.77.0.1/24", ["10.77.0.2/32"]))).rejects.toThrow("Line unrecognized");
    expect(host.links.has("wg0")).toBe(false);
  });

  it("leaves routes alone with Table = off", async () => {
    const { host, apply } = setup();
    await apply(text("10.77.0.1/24", ["192.168.77.0/24"], "Table = off"));
    expect(host.routesOf("wg0")).toEqual([]);
  });
});

describe("taking an interface down", () => {
  it("removes the link (wireguard-go exits with it) and the default-route rules", async () => {
    const { host, dir, apply } = setup();
    await apply(text("10.77.0.1/24", ["0.0.0.0/0"]));
    const sys = host.createSystem({ netns: "ns1" });
    expect(await cli.iface.takeDown({ sys, ifname: "wg0", method: "setconf", wgQuickPath: join(dir, "wg0.conf") })).toEqual({
      action: "removed",
    });
    expect(host.links.has("wg0")).toBe(false);
    expect(host.rules).toEqual([]);
    expect(await cli.iface.takeDown({ sys, ifname: "wg0", method: "setconf", wgQuickPath: join(dir, "wg0.conf") })).toEqual({
      action: "absent",
    });
  });
});

describe("choosing the method", () => {
  it("auto is wg-quick where the kernel can make a wireguard link, setconf elsewhere", async () => {
    expect(await cli.iface.chooseMethod(fakeHost({ kernelModule: true }).createSystem(), "auto")).toBe("wg-quick");
    expect(await cli.iface.chooseMethod(fakeHost({ kernelModule: false }).createSystem(), "auto")).toBe("setconf");
    expect(await cli.iface.chooseMethod(fakeHost({ kernelModule: true }).createSystem(), "setconf")).toBe("setconf");
  });

  it("the wg-quick method hands wg-quick a file named after the interface (key filled in, 0600), then downs it", async () => {
    const { host, dir, apply } = setup({ kernelModule: true });
    const config = text("10.77.0.1/24", ["10.77.0.2/32"]);
    expect((await apply(config, "wg-quick")).action).toBe("created");
    expect(host.wgVerbs).toEqual(["wg-quick up"]);
    expect(host.links.get("wg0")!.conf).toBe(config);
    expect(statSync(join(dir, "wg0.conf")).mode & 0o777).toBe(0o600);
    expect((await apply(config, "wg-quick")).action, "a running interface is re-applied with syncconf").toBe("synced");
    expect(host.wgVerbs).toEqual(["wg-quick up", "syncconf"]);
    const sys = host.createSystem({ netns: "ns1" });
    await cli.iface.takeDown({ sys, ifname: "wg0", method: "wg-quick", wgQuickPath: join(dir, "wg0.conf") });
    expect(host.wgVerbs.at(-1)).toBe("wg-quick down");
  });
});

describe("running host commands", () => {
  it("returns exit code and output, and check() fails with the command and its last stderr line", async () => {
    const sys = cli.system.createSystem({ env: process.env });
    expect(await sys.run(["sh", "-c", "echo out; echo err >&2; exit 3"])).toEqual({ code: 3, stdout: "out\n", stderr: "err\n" });
    await expect(sys.check(["sh", "-c", "echo first >&2; echo last >&2; exit 4"])).rejects.toThrow(
      'sh -c "echo first >&2; echo last >&2; exit 4" failed (exit 4): last',
    );
    await expect(sys.check(["wgo-no-such-binary"])).rejects.toThrow("wgo-no-such-binary is not installed (or not on PATH)");
  });

  it("parses `wg show dump` into heartbeat peers: handshake epoch as RFC 3339, 0 as null, the endpoint when there is one", () => {
    const dump = [
      "privkey\tpubkey\t51820\toff",
      `${PEER}\t(none)\t192.0.2.1:51820\t10.77.0.2/32,192.168.77.0/24\t1763719200\t1234\t5678\t25`,
      `${KEY}\t(none)\t(none)\t10.77.0.3/32\t0\t0\t0\toff`,
    ].join("\n");
    const parsed = cli.system.parseWgDump(`${dump}\n`);
    expect(parsed.listenPort).toBe(51820);
    expect(parsed.peers[0]).toMatchObject({ endpoint: "192.0.2.1:51820", allowedIps: ["10.77.0.2/32", "192.168.77.0/24"] });
    expect(cli.system.heartbeatPeers(parsed)).toEqual([
      { publicKey: PEER, lastHandshakeAt: "2025-11-21T10:00:00.000Z", rxBytes: 1234, txBytes: 5678, endpoint: "192.0.2.1:51820" },
      { publicKey: KEY, lastHandshakeAt: null, rxBytes: 0, txBytes: 0 },
    ]);
    // For a server from before issue 28, which knows no endpoint field.
    expect(cli.system.heartbeatPeers(parsed, { endpoints: false })[0]).not.toHaveProperty("endpoint");
  });
});
