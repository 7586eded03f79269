// A device's part in paths across NAT on a real host (wireguard-go, ip, wg in a network namespace; the API
// faked): `wgo up --netns` binds the listen port wgo keeps and brings up a relayed pair's peer (no AllowedIPs,
// which real `wg setconf` refuses as an empty line), the heartbeat's localEndpoints are the laptop namespace's
// LAN address with that port (not the addresses of the namespace wgo runs in), and the next `up` binds the
// same port again.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import { enrolLaptop, startDeviceApi } from "./support/device-api.ts";

const sh = (...args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: ["pipe", "pipe", "pipe"] }).toString();
const suffix = process.pid.toString(36);
const LAPTOP = `dnat-l-${suffix}`;
const VETH = `dnat${suffix}`.slice(0, 15);
const KEY_B = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";

let api: Awaited<ReturnType<typeof startDeviceApi>>;
const { home, remove } = tempHome();
const wgo = (...args: string[]) =>
  runWgo(["--home", home, "--json", ...args], { env: { PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin" } });
const device = () => JSON.parse(readFileSync(join(home, "devices", "laptop.json"), "utf8"));
const boundPort = () => Number(sh("ip", "netns", "exec", LAPTOP, "wg", "show", "wg7", "listen-port").trim());

describe("a device behind NAT on a real host", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    sh("ip", "netns", "add", LAPTOP);
    sh("ip", "link", "add", VETH, "type", "veth", "peer", "name", "lan0", "netns", LAPTOP);
    sh("ip", "netns", "exec", LAPTOP, "ip", "address", "add", "192.168.77.10/24", "dev", "lan0");
    sh("ip", "netns", "exec", LAPTOP, "ip", "link", "set", "lan0", "up");
    sh("ip", "netns", "exec", LAPTOP, "ip", "link", "set", "lo", "up");
    api = await startDeviceApi();
    api.state.dns = [];
    // A pair the server moved onto the relay (the gateway peer): B's own entry stays, with no address.
    api.state.peers = [
      {
        nodeId: "node_3",
        name: "b",
        address: "10.77.0.3",
        publicKey: KEY_B,
        endpoint: "198.51.100.3:41641",
        allowedIps: [],
        persistentKeepalive: 25,
      },
    ];
    api.state.extraAllowedIps = ["10.77.0.3/32"];
    await enrolLaptop(runWgo, api.url, home);
  }, 30_000);

  afterAll(async () => {
    try {
      await wgo("down", "--name", "laptop");
    } finally {
      execFileSync("ip", ["netns", "del", LAPTOP], { stdio: "ignore" });
      await api?.close();
      remove();
    }
  });

  it("comes up with the relayed pair's empty peer, on the port it keeps, and reports the LAN endpoint", async () => {
    const up = await wgo("up", "--name", "laptop", "--netns", LAPTOP, "--interface", "wg7", "--method", "setconf");
    expect(up.code, up.stderr).toBe(0);
    const port = device().listenPort;
    expect(port).toBeGreaterThanOrEqual(40000);
    expect(boundPort()).toBe(port);
    const allowed = sh("ip", "netns", "exec", LAPTOP, "wg", "show", "wg7", "allowed-ips");
    expect(allowed).toContain(`${KEY_B}\t(none)`);
    expect(sh("ip", "netns", "exec", LAPTOP, "wg", "show", "wg7", "endpoints")).toContain(`${KEY_B}\t198.51.100.3:41641`);

    // `up` reported once at its end: the laptop's LAN address, not wgo's own namespace's, nor wg7's.
    expect(api.state.heartbeats.at(-1).localEndpoints).toEqual([`192.168.77.10:${port}`]);

    expect((await wgo("down", "--name", "laptop")).code).toBe(0);
    expect((await wgo("up", "--name", "laptop")).code).toBe(0);
    expect(boundPort()).toBe(port);
  });
});
