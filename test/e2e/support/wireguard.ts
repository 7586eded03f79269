// wireguard-go inside a namespace, configured the way wg-quick would (see wg-quick.ts), plus key
// generation and `wg show dump` parsing. The kernel module is unavailable here, hence userspace.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import ipaddr from "ipaddr.js";
import { check, OutputTail, waitFor, type CommandResult } from "./command.ts";
import { planWgQuick, type WgQuickPlan } from "./wg-quick.ts";

/** What the WireGuard helpers need from a namespace (implemented by netns.ts hosts). */
export interface NamespaceShell {
  readonly namespace: string;
  /** This host's private stand-in for /run/wireguard (wireguard-go's UAPI socket directory). */
  readonly runDir: string;
  /** argv that runs `cmd` inside the namespace with `runDir` mounted on /run/wireguard. */
  argv(cmd: string[]): string[];
  exec(cmd: string[]): Promise<string>;
  run(cmd: string[]): Promise<CommandResult>;
}

export interface WgPeerState {
  publicKey: string;
  endpoint: string | null;
  allowedIps: string[];
  /** Unix seconds; 0 means no handshake yet. */
  latestHandshake: number;
  rxBytes: number;
  txBytes: number;
}

export async function wgKeyPair(): Promise<{ privateKey: string; publicKey: string }> {
  const privateKey = (await check(["wg", "genkey"])).trim();
  const publicKey = (await check(["wg", "pubkey"], { input: `${privateKey}\n` })).trim();
  return { privateKey, publicKey };
}

/**
 * Starts wireguard-go in the foreground (so the process is the daemon itself) and waits for its
 * socket. `track` sees the process at once, so a lab can still kill it if startup then fails.
 */
export async function launchWireGuardGo(
  shell: NamespaceShell,
  ifname: string,
  track: (child: ChildProcess) => void,
): Promise<ChildProcess> {
  const [file, ...args] = shell.argv(["wireguard-go", "-f", ifname]);
  const child = spawn(file!, args, {
    env: { ...process.env, WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  track(child);
  const output = new OutputTail();
  child.stdout!.on("data", (chunk) => output.append(chunk));
  child.stderr!.on("data", (chunk) => output.append(chunk));
  child.on("error", (error) => output.append(`spawn error: ${error.message}\n`));
  // Ready means the UAPI socket exists: before that, `wg setconf` fails with "No such file".
  const socket = join(shell.runDir, `${ifname}.sock`);
  await waitFor(
    `wireguard-go ${ifname} in ${shell.namespace}`,
    () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`wireguard-go ${ifname} in ${shell.namespace} exited early:\n${output}`);
      }
      return existsSync(socket);
    },
    { timeoutMs: 10_000, intervalMs: 50, details: () => String(output) },
  );
  return child;
}

/**
 * Applies wg-quick text to a running interface, in wg-quick's order: WireGuard config, addresses,
 * MTU, up, routes, then the PostUp sysctls. Addresses and routes are synced (stale ones removed),
 * so this is also the reapply path. `setconf` starts from scratch; a reapply must use `syncconf`:
 * setconf drops every peer's session, and the far side, still holding its old session, then sends
 * into the void until its rekey timeout (~15 s) gives up on it.
 */
export async function applyWgQuick(
  shell: NamespaceShell,
  ifname: string,
  text: string,
  privateKey: string,
  scratchDir: string,
  mode: "setconf" | "syncconf",
): Promise<WgQuickPlan> {
  const plan = planWgQuick(text, privateKey);
  const confPath = join(scratchDir, `${shell.namespace}-${ifname}.conf`);
  await writeFile(confPath, plan.setconf, { mode: 0o600 }); // holds a private key
  await shell.exec(["wg", mode, ifname, confPath]);
  await syncAddresses(shell, ifname, plan.addresses.map(canonicalInterfaceAddress));
  if (plan.mtu) await shell.exec(["ip", "link", "set", "dev", ifname, "mtu", String(plan.mtu)]);
  await shell.exec(["ip", "link", "set", "dev", ifname, "up"]);
  await syncRoutes(shell, ifname, plan.allowedIps);
  for (const setting of plan.sysctls) await shell.exec(["sysctl", "-q", "-w", setting]);
  return plan;
}

export async function wgDump(shell: NamespaceShell, ifname: string): Promise<WgPeerState[]> {
  const lines = (await shell.exec(["wg", "show", ifname, "dump"])).trim().split("\n");
  // Line 1 is the interface; each further line is: key psk endpoint allowed-ips handshake rx tx keepalive.
  return lines
    .slice(1)
    .filter(Boolean)
    .map((line) => {
      const [publicKey, , endpoint, allowedIps, handshake, rx, tx] = line.split("\t");
      return {
        publicKey: publicKey!,
        endpoint: endpoint === "(none)" ? null : endpoint!,
        allowedIps: allowedIps === "(none)" ? [] : allowedIps!.split(","),
        latestHandshake: Number(handshake),
        rxBytes: Number(rx),
        txBytes: Number(tx),
      };
    });
}

async function syncAddresses(shell: NamespaceShell, ifname: string, desired: string[]): Promise<void> {
  const links = JSON.parse(await shell.exec(["ip", "-j", "address", "show", "dev", ifname])) as Array<{
    addr_info?: Array<{ local: string; prefixlen: number; scope: string }>;
  }>;
  const current = (links[0]?.addr_info ?? [])
    .filter((info) => info.scope !== "link") // the kernel's fe80:: address is not ours to manage
    .map((info) => canonicalInterfaceAddress(`${info.local}/${info.prefixlen}`));
  for (const stale of current.filter((address) => !desired.includes(address))) {
    await shell.exec(["ip", "address", "del", stale, "dev", ifname]);
  }
  for (const missing of desired.filter((address) => !current.includes(address))) {
    await shell.exec(["ip", "address", "add", missing, "dev", ifname]);
  }
}

/**
 * wg-quick adds `ip route add <allowed-ip> dev <if>` unless a route on the interface already covers
 * the prefix. Our device routes (proto boot) are diffed against that set; the connected routes the
 * kernel made for the addresses (proto kernel) are what "already covers" means. A /0 becomes a plain
 * default route: endpoints sit on a directly connected underlay, so no fwmark table trick is needed.
 */
async function syncRoutes(shell: NamespaceShell, ifname: string, allowedIps: string[]): Promise<void> {
  const connected = await deviceRoutes(shell, ifname, "kernel");
  const desired = [...new Set(allowedIps.map(canonicalPrefix))].filter((prefix) => !connected.some((route) => covers(route, prefix)));
  const current = await deviceRoutes(shell, ifname, "boot");
  for (const stale of current.filter((route) => !desired.includes(route))) {
    await shell.exec(["ip", "route", "del", stale, "dev", ifname]);
  }
  for (const missing of desired.filter((route) => !current.includes(route))) {
    await shell.exec(["ip", "route", "add", missing, "dev", ifname]);
  }
}

async function deviceRoutes(shell: NamespaceShell, ifname: string, proto: "kernel" | "boot"): Promise<string[]> {
  const routes: string[] = [];
  for (const family of ["-4", "-6"] as const) {
    const listed = JSON.parse(await shell.exec(["ip", "-j", family, "route", "show", "dev", ifname, "proto", proto])) as Array<{
      dst: string;
    }>;
    for (const { dst } of listed) {
      if (dst === "default") routes.push(family === "-4" ? "0.0.0.0/0" : "::/0");
      else routes.push(canonicalPrefix(dst.includes("/") ? dst : `${dst}/${family === "-4" ? 32 : 128}`));
    }
  }
  return routes;
}

/** `10.0.0.5/24` stays a host address with its prefix length (what `ip address` shows). */
function canonicalInterfaceAddress(cidr: string): string {
  const [address, length] = ipaddr.parseCIDR(cidr);
  return `${address.toString()}/${length}`;
}

/** A route prefix in the form `ip -j route` prints: network address, compact IPv6. */
export function canonicalPrefix(cidr: string): string {
  const withLength = cidr.includes("/") ? cidr : `${cidr}/${ipaddr.parse(cidr).kind() === "ipv4" ? 32 : 128}`;
  const [address, length] = ipaddr.parseCIDR(withLength);
  const network =
    address.kind() === "ipv4" ? ipaddr.IPv4.networkAddressFromCIDR(withLength) : ipaddr.IPv6.networkAddressFromCIDR(withLength);
  return `${network.toString()}/${length}`;
}

function covers(outer: string, inner: string): boolean {
  const [outerAddress, outerLength] = ipaddr.parseCIDR(outer);
  const [innerAddress, innerLength] = ipaddr.parseCIDR(inner);
  if (outerAddress.kind() !== innerAddress.kind() || innerLength < outerLength) return false;
  return innerAddress.match(outerAddress, outerLength);
}
