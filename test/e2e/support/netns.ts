// A throwaway data plane: network namespaces as hosts, bridges as switches, wireguard-go as the
// tunnel. Everything a lab creates is recorded so `cleanup()` (call it in afterAll) removes it; if
// the worker is stopped before afterAll runs (SIGTERM, Ctrl-C, exit), onAbruptExit does it instead.
import { type ChildProcess, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ipaddr from "ipaddr.js";
import { check, onAbruptExit, run } from "./command.ts";
import type { WgQuickPlan } from "./wg-quick.ts";
import { applyWgQuick, canonicalPrefix, launchWireGuardGo, wgDump, type NamespaceShell, type WgPeerState } from "./wireguard.ts";

export { wgKeyPair, type WgPeerState } from "./wireguard.ts";

const WG_RUN_DIR = "/run/wireguard";
// wireguard-go names its UAPI socket only by interface, in a directory every namespace shares.
// `ip netns exec` gives each command a private mount namespace, so binding the host's own directory
// over /run/wireguard there keeps every host's "wg0" (and concurrent test runs) apart.
const WITH_OWN_RUN_DIR = `mount --bind "$0" ${WG_RUN_DIR} && exec "$@"`;

export interface Host extends NamespaceShell {
  readonly name: string;
  /** True when at least one of `count` echo requests (0.2 s apart, 1 s wait) is answered. */
  ping(address: string, count?: number): Promise<boolean>;
  /**
   * Pings until the first reply or the deadline. Use it for "becomes reachable": a handshake
   * initiation lost (say, sent by PersistentKeepalive before the peer was up) is only retried
   * after WireGuard's 5 s rekey timeout, which a short `ping` would report as unreachable.
   */
  pingUntilReply(address: string, timeoutMs?: number): Promise<boolean>;
  /** Starts wireguard-go as `ifname` and applies the wg-quick text (placeholder key filled in). */
  startWireGuard(ifname: string, wgQuickText: string, privateKey: string): Promise<WgQuickPlan>;
  /**
   * Applies new wg-quick text to the running interface without restarting it: `wg syncconf` (what
   * `wg syncconf wg0 <(wg-quick strip wg0)` does for real clients) plus address/route resync.
   */
  reapplyWireGuard(ifname: string, wgQuickText: string, privateKey: string): Promise<WgQuickPlan>;
  wgDump(ifname: string): Promise<WgPeerState[]>;
  /** Puts `cidrAddress` (e.g. 192.168.77.10/24) in a namespace behind this host; returns that host. */
  addStandInDestination(cidrAddress: string): Promise<Host>;
}

export interface Lab {
  readonly name: string;
  addHost(name: string): Promise<Host>;
  /** Wires the hosts to one new switch; returns their underlay addresses (.1, .2, … of `subnet`). */
  connect(hosts: Host[], subnet: string): Promise<string[]>;
  namespaces(): string[];
  /** Kills every wireguard-go, deletes every namespace and scratch file. Safe to call twice. */
  cleanup(): Promise<void>;
}

interface LabState {
  namespaces: string[];
  processes: ChildProcess[];
  scratchDir: string;
}

export function canRunDataPlane(): { ok: boolean; reason: string } {
  if (process.platform !== "linux") return { ok: false, reason: `network namespaces need Linux, not ${process.platform}` };
  if (process.getuid?.() !== 0) return { ok: false, reason: "network namespaces need root" };
  const missing = ["ip", "wg", "wireguard-go", "ping", "mount", "sysctl"].filter(
    (binary) => spawnSync("sh", ["-c", `command -v ${binary}`]).status !== 0,
  );
  if (missing.length) return { ok: false, reason: `missing binaries: ${missing.join(", ")}` };
  if (!existsSync("/dev/net/tun")) return { ok: false, reason: "no /dev/net/tun for wireguard-go" };
  return { ok: true, reason: "root, /dev/net/tun, ip, wg, wireguard-go and ping present" };
}

export async function listNamespaces(): Promise<string[]> {
  const listed = await check(["ip", "netns", "list"]);
  return listed
    .split("\n")
    .map((line) => line.split(" ")[0]!)
    .filter(Boolean);
}

/** Every namespace of lab `labName` now listed: its hosts' and those made beside them (wgo's routing domains). */
export async function labNamespaces(labName: string): Promise<string[]> {
  return (await listNamespaces()).filter((namespace) => namespace.startsWith(`${labName}-`));
}

/** `prefix` keeps names readable; a random suffix keeps runs (and crashed leftovers) from colliding. */
export function createLab(prefix: string): Lab {
  if (!/^[a-z][a-z0-9]{0,11}$/.test(prefix)) throw new Error(`lab prefix must be short lowercase: ${prefix}`);
  const name = `${prefix}-${randomBytes(2).toString("hex")}`;
  const state: LabState = { namespaces: [], processes: [], scratchDir: mkdtempSync(join(tmpdir(), `${name}-`)) };
  const unregister = onAbruptExit(() => {
    // Only synchronous work is possible here: signal the daemons, drop the namespaces (with those
    // `wgo gateway run --netns` made beside the lab's hosts, named after them).
    for (const child of state.processes) child.kill("SIGKILL");
    const listed = spawnSync("ip", ["netns", "list"], { encoding: "utf8" }).stdout ?? "";
    const beside = listed.split("\n").map((line) => line.split(" ")[0]!);
    const namespaces = [...new Set([...state.namespaces, ...beside.filter((ns) => ns.startsWith(`${name}-`))])];
    // What wgo started in them (wireguard-go, knotd, its own daemons) is no child of ours, and a deleted
    // namespace does not stop its processes: they are killed by the namespace's pid list first.
    for (const namespace of namespaces) {
      const pids = spawnSync("ip", ["netns", "pids", namespace], { encoding: "utf8" }).stdout ?? "";
      for (const pid of pids.split("\n").filter(Boolean)) spawnSync("kill", ["-9", pid]);
    }
    for (const namespace of namespaces) spawnSync("ip", ["netns", "del", namespace]);
    rmSync(state.scratchDir, { recursive: true, force: true });
  });
  mkdirSync(WG_RUN_DIR, { recursive: true }); // the mount point the per-host directories go over
  let switchNamespace: string | undefined;
  let switches = 0;

  async function addNamespace(namespace: string): Promise<void> {
    await check(["ip", "netns", "add", namespace]);
    state.namespaces.push(namespace);
    await check(["ip", "-n", namespace, "link", "set", "lo", "up"]);
  }

  async function addHost(hostName: string): Promise<Host> {
    if (!/^[a-z][a-z0-9-]*$/.test(hostName)) throw new Error(`host name must be lowercase: ${hostName}`);
    const namespace = `${name}-${hostName}`;
    if (state.namespaces.includes(namespace)) throw new Error(`host ${hostName} already exists`);
    await addNamespace(namespace);
    const runDir = join(state.scratchDir, hostName);
    mkdirSync(runDir);
    return makeHost(hostName, namespace, runDir);
  }

  function makeHost(hostName: string, namespace: string, runDir: string): Host {
    let standIns = 0;
    const shell: NamespaceShell = {
      namespace,
      runDir,
      argv: (cmd) => ["ip", "netns", "exec", namespace, "sh", "-c", WITH_OWN_RUN_DIR, runDir, ...cmd],
      exec: (cmd) => check(shell.argv(cmd)),
      run: (cmd) => run(shell.argv(cmd)),
    };
    const host: Host = {
      ...shell,
      name: hostName,
      ping: async (address, count = 3) =>
        (await shell.run(["ping", "-n", "-q", "-c", String(count), "-i", "0.2", "-W", "1", address])).code === 0,
      pingUntilReply: async (address, timeoutMs = 12_000) => {
        const seconds = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
        return (await shell.run(["ping", "-n", "-q", "-c", "1", "-w", seconds, "-i", "0.2", address])).code === 0;
      },
      startWireGuard: async (ifname, text, privateKey) => {
        await launchWireGuardGo(shell, ifname, (child) => state.processes.push(child));
        return applyWgQuick(shell, ifname, text, privateKey, state.scratchDir, "setconf");
      },
      reapplyWireGuard: (ifname, text, privateKey) => applyWgQuick(shell, ifname, text, privateKey, state.scratchDir, "syncconf"),
      wgDump: (ifname) => wgDump(shell, ifname),
      addStandInDestination: async (cidrAddress) => {
        const index = standIns++;
        const destination = await addHost(`${hostName}-dst${index}`);
        const hostSide = `sd${index}`;
        await check([
          "ip",
          "link",
          "add",
          hostSide,
          "netns",
          namespace,
          "type",
          "veth",
          "peer",
          "name",
          "eth0",
          "netns",
          destination.namespace,
        ]);
        // The host side holds a link-local gateway address so the stand-in can send everything
        // (replies included) back to this host with one onlink default route.
        const v4 = ipaddr.parseCIDR(cidrAddress)[0].kind() === "ipv4";
        const gateway = v4 ? "169.254.0.1" : "fe80::1";
        const noDad = v4 ? [] : ["nodad"]; // IPv6 addresses are unusable during DAD (~1 s)
        await check(["ip", "-n", namespace, "address", "add", v4 ? `${gateway}/32` : `${gateway}/64`, "dev", hostSide, ...noDad]);
        await check(["ip", "-n", namespace, "link", "set", hostSide, "up"]);
        await check(["ip", "-n", destination.namespace, "address", "add", cidrAddress, "dev", "eth0", ...noDad]);
        await check(["ip", "-n", destination.namespace, "link", "set", "eth0", "up"]);
        await check(["ip", "-n", destination.namespace, "route", "add", "default", "via", gateway, "dev", "eth0", "onlink"]);
        await check(["ip", "-n", namespace, "route", "add", canonicalPrefix(cidrAddress), "dev", hostSide]);
        return destination;
      },
    };
    return host;
  }

  async function connect(hosts: Host[], subnet: string): Promise<string[]> {
    const [, length] = ipaddr.IPv4.parseCIDR(subnet); // the underlay is IPv4 only: it is scaffolding
    const first = ipaddr.IPv4.networkAddressFromCIDR(subnet)
      .toByteArray()
      .reduce((n, byte) => n * 256 + byte, 0);
    if (hosts.length > 2 ** (32 - length) - 2) throw new Error(`${subnet} is too small for ${hosts.length} hosts`);
    if (!switchNamespace) {
      await addNamespace(`${name}-switch`);
      switchNamespace = `${name}-switch`;
    }
    const link = switches++;
    const bridge = `br${link}`;
    await check(["ip", "-n", switchNamespace, "link", "add", bridge, "type", "bridge"]);
    await check(["ip", "-n", switchNamespace, "link", "set", bridge, "up"]);
    const addresses: string[] = [];
    for (const [index, host] of hosts.entries()) {
      const n = first + index + 1;
      const address = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
      const hostSide = `ul${link}`; // underlay link number `link`: a host may sit on several switches
      const switchSide = `s${link}h${index}`;
      await check([
        "ip",
        "link",
        "add",
        hostSide,
        "netns",
        host.namespace,
        "type",
        "veth",
        "peer",
        "name",
        switchSide,
        "netns",
        switchNamespace,
      ]);
      await check(["ip", "-n", switchNamespace, "link", "set", switchSide, "master", bridge, "up"]);
      await check(["ip", "-n", host.namespace, "address", "add", `${address}/${length}`, "dev", hostSide]);
      await check(["ip", "-n", host.namespace, "link", "set", hostSide, "up"]);
      addresses.push(address);
    }
    return addresses;
  }

  async function cleanup(): Promise<void> {
    await Promise.all(state.processes.splice(0).map(stopProcess));
    for (const namespace of state.namespaces.splice(0).reverse()) await run(["ip", "netns", "del", namespace]);
    // The routing domains `wgo gateway run --netns <host>` made beside the hosts (named <host>-n…).
    for (const namespace of await labNamespaces(name)) await run(["ip", "netns", "del", namespace]);
    rmSync(state.scratchDir, { recursive: true, force: true });
    unregister();
  }

  return { name, addHost, connect, namespaces: () => [...state.namespaces], cleanup };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}
