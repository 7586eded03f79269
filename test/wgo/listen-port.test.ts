// A device's listen port is kept (cli/listen-port.mjs): a config without ListenPort gets one port, picked
// once and free when picked, on every `up`, re-apply and heartbeat --apply, so a NAT mapping the server
// learned for it stays valid. A configured port wins; a kept port that is taken is said, not replaced.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, runWgo, tempHome } from "./support/cli.ts";
import { enrolLaptop, startDeviceApi } from "./support/device-api.ts";
import { fakeHost } from "./support/fake-system.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup(listenPort: number | null = null) {
  const api = await startDeviceApi();
  api.state.listenPort = listenPort;
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost();
  const wgo = (args: string[]) => runWgo(["--home", home, "--json", ...args], { createSystem: host.createSystem });
  const device = () => JSON.parse(readFileSync(join(home, "devices", "laptop.json"), "utf8"));
  const boundPort = () => Number(/^ListenPort = (\d+)$/m.exec(host.links.get("wg7")!.conf)?.[1]);
  const up = () => wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7", "--method", "setconf"]);
  return { api, home, host, wgo, device, boundPort, up };
}

describe("the listen port a device keeps", () => {
  it("is picked once in 40000-59999 and bound by every up, re-apply and heartbeat --apply", async () => {
    const { api, host, wgo, device, boundPort, up } = await setup();
    expect((await up()).code).toBe(0);
    const port = device().listenPort;
    expect(port).toBeGreaterThanOrEqual(40000);
    expect(port).toBeLessThanOrEqual(59999);
    expect(boundPort()).toBe(port);

    await wgo(["down", "--name", "laptop"]);
    expect((await up()).json[0].action).toBe("created");
    expect(boundPort()).toBe(port);

    // An interface change (DNS) cannot go as `wg set`: the full text is synced, the port still in it.
    api.state.revision = 4;
    api.state.dns = ["10.77.0.54"];
    const beat = await wgo(["heartbeat", "--name", "laptop", "--once", "--apply"]);
    expect(beat.json[0].applied).toMatchObject({ revision: 4, action: "synced" });
    expect(host.wgVerbs).toEqual(["setconf", "setconf", "syncconf"]);
    expect(boundPort()).toBe(port);
    expect((await up()).json[0].action).toBe("synced");
    expect(boundPort()).toBe(port);
    expect(device().listenPort).toBe(port);
  });

  it("a listenPort the config names wins, and nothing is kept", async () => {
    const { device, boundPort, up } = await setup(51999);
    expect((await up()).code).toBe(0);
    expect(boundPort()).toBe(51999);
    expect(device().listenPort).toBeUndefined();
  });

  it("taken by another program at the next up: said plainly, with the port, and no other port is picked", async () => {
    const { host, wgo, device, up } = await setup();
    await up();
    const port = device().listenPort;
    await wgo(["down", "--name", "laptop"]);
    host.udpPorts.set("ns1", new Set([port]));
    const result = await up();
    expect(result.code).toBe(1);
    expect(result.json[0].error.code).toBe("port_in_use");
    expect(result.json[0].error.message).toContain(`UDP port ${port} is already in use on this machine`);
    expect(result.json[0].error.message).toContain(
      "wgo keeps this port for device laptop so that NAT mappings its peers learned stay valid",
    );
    expect(result.json[0].error.message).toContain(`remove "listenPort" from `);
    expect(host.links.has("wg7")).toBe(false);
    expect(device().listenPort).toBe(port);
  });
});

describe("picking the port", () => {
  const device = { name: "laptop" };

  it("skips a port bound in the interface's namespace (read from /proc/net/udp there)", async () => {
    const host = fakeHost();
    host.udpPorts.set("ns1", new Set([45000, 45001]));
    const sys = host.createSystem({ netns: "ns1" });
    const tries = [45000, 45001, 45002];
    const port = await cli.listenPort.keptListenPort({ sys, ifname: "wg7", device, random: () => tries.shift() });
    expect(port).toBe(45002);
    expect(host.calls).toContainEqual(["ip", "netns", "exec", "ns1", "cat", "/proc/net/udp", "/proc/net/udp6"]);
    // Another namespace's sockets do not count.
    expect(await cli.listenPort.keptListenPort({ sys: host.createSystem(), ifname: "wg7", device, random: () => 45000 })).toBe(45000);
  });

  it("adopts the port of an interface that already runs (brought up before wgo kept ports)", async () => {
    const host = fakeHost();
    const sys = host.createSystem({ netns: "ns1" });
    await sys.check(["wireguard-go", "wg7"]);
    host.links.get("wg7")!.dump = "priv\tpub\t43210\toff\n";
    expect(await cli.listenPort.keptListenPort({ sys, ifname: "wg7", device, random: () => 50000 })).toBe(43210);
  });

  it("writes ListenPort into the [Interface] section only when the text names none", () => {
    const text = "# header\n[Interface]\nPrivateKey = k\nAddress = 10.0.0.1/24\n\n[Peer]\nPublicKey = p\nAllowedIPs = \n";
    expect(cli.listenPort.withListenPort(text, 45002)).toBe(text.replace("[Interface]\n", "[Interface]\nListenPort = 45002\n"));
    const named = text.replace("Address", "ListenPort = 51820\nAddress");
    expect(cli.listenPort.configuredListenPort(named)).toBe(51820);
    expect(cli.listenPort.withListenPort(named, 45002)).toBe(named);
  });
});
