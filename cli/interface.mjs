// Bringing a WireGuard interface up, re-applying a changed config to it, and taking it down, with
// either method: `wg-quick` (the standard tool, needs the kernel module for speed and resolvconf for
// DNS) or `setconf` (the kernel's link or wireguard-go, + wg + ip: what wg-quick does minus DNS and hooks).
import { randomBytes } from "node:crypto";
import { OperationError } from "./errors.mjs";
import { removeFile, writeSecretFile } from "./files.mjs";
import { removeDefaultRouteRules } from "./default-route.mjs";
import { syncAddresses, syncRoutes } from "./routes.mjs";
import { planWgQuick, wgQuickFile } from "./wg-quick-text.mjs";

export const METHODS = ["auto", "wg-quick", "setconf"];

/** @param {import("./system.mjs").System} sys */
export async function interfaceExists(sys, ifname) {
  return (await sys.run(["ip", "link", "show", "dev", ifname])).code === 0;
}

/** auto: wg-quick when this kernel can create a WireGuard link and wg-quick is installed, else setconf. */
export async function chooseMethod(sys, requested) {
  if (requested !== "auto") return requested;
  const probe = `wgoprobe${randomBytes(3).toString("hex")}`;
  if ((await sys.run(["ip", "link", "add", probe, "type", "wireguard"])).code !== 0) return "setconf";
  await sys.run(["ip", "link", "del", "dev", probe]);
  return (await sys.run(["sh", "-c", "command -v wg-quick"])).code === 0 ? "wg-quick" : "setconf";
}

/**
 * Brings the interface up from `text` (a complete wg-quick file, private key filled in), or re-applies
 * it when the interface exists. Re-applying uses `wg syncconf`: setconf would drop every live session,
 * and peers still holding the old one would send into the void until their rekey timeout.
 * `birthSys` (the gateway agent's routing domains): the interface is created there and moved into `sys`'s
 * namespace, so its UDP socket stays where it was born (the underlay) while the interface, its addresses
 * and routes live in `sys`'s namespace.
 * @param {{ sys: import("./system.mjs").System, ifname: string, text: string, method: "wg-quick" | "setconf",
 *   wgQuickPath: string, env?: NodeJS.ProcessEnv, birthSys?: import("./system.mjs").System }} options
 */
export async function applyConfig({ sys, ifname, text, method, wgQuickPath, env = process.env, birthSys }) {
  const plan = planWgQuick(text);
  const exists = await interfaceExists(sys, ifname);
  if (method === "wg-quick" && !exists) {
    writeSecretFile(wgQuickPath, wgQuickFile(text)); // wg-quick takes the interface name from the file name
    await portFree(plan, () => sys.check(["wg-quick", "up", wgQuickPath]));
    return { action: "created", method, plan, routes: [] };
  }
  if (!exists && birthSys) await createAndMove(birthSys, sys, ifname, env);
  else if (!exists) await createLink(sys, ifname, env);
  try {
    return await configure(sys, ifname, plan, exists, method, text, wgQuickPath);
  } catch (error) {
    // A half-configured new interface would make the next `up` a re-apply of a broken state.
    if (!exists) await sys.run(["ip", "link", "del", "dev", ifname]);
    throw error;
  }
}

async function configure(sys, ifname, plan, exists, method, text, wgQuickPath) {
  // A file, not /dev/stdin: Node's stdin pipes are sockets, which wg cannot fopen. It holds the private
  // key, so it is 0600 in wgo's private directory and removed at once.
  const setPeers = async () => {
    const stripped = wgQuickPath.replace(/\.conf$/, ".setconf");
    writeSecretFile(stripped, plan.setconf);
    try {
      await portFree(plan, () => sys.check(["wg", exists ? "syncconf" : "setconf", ifname, stripped]));
    } finally {
      removeFile(stripped);
    }
  };
  let routes;
  if (exists) {
    // Re-applying (a failover, a path change): what moves traffic first. The routes a new AllowedIPs entry
    // needs go in before the peers change (a member taking over a hop then forwards the moment the hops
    // beside it send to it), routes no peer needs any more go after; then forwarding; the address and link
    // state last, as they rarely change (a changed address moves the connected route: routes synced again).
    routes = await syncRoutes(sys, ifname, plan.allowedIps, plan.table, setPeers);
    for (const setting of plan.sysctls) await sys.check(["sysctl", "-q", "-w", setting]);
    if (await syncAddresses(sys, ifname, plan.addresses)) routes = await syncRoutes(sys, ifname, plan.allowedIps, plan.table);
    await linkUp(sys, ifname, plan);
  } else {
    await setPeers();
    await syncAddresses(sys, ifname, plan.addresses);
    await linkUp(sys, ifname, plan);
    routes = await syncRoutes(sys, ifname, plan.allowedIps, plan.table);
    for (const setting of plan.sysctls) await sys.check(["sysctl", "-q", "-w", setting]);
  }
  if (method === "wg-quick") writeSecretFile(wgQuickPath, wgQuickFile(text)); // so `wg-quick down` sees the current file
  return { action: exists ? "synced" : "created", method, plan, routes };
}

async function linkUp(sys, ifname, plan) {
  if (plan.mtu) await sys.check(["ip", "link", "set", "dev", ifname, "mtu", String(plan.mtu)]);
  await sys.check(["ip", "link", "set", "dev", ifname, "up"]);
}

/**
 * WireGuard binds its UDP listen port when the config is set; a port another interface or program holds
 * fails there with EADDRINUSE ("Address already in use"), which is worth saying in plain words.
 */
async function portFree(plan, step) {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof Error) || !/Address (already )?in use|EADDRINUSE/i.test(error.message)) throw error;
    const port = /^ListenPort\s*=\s*(\d+)/im.exec(plan.setconf)?.[1] ?? "the ListenPort";
    throw new OperationError(
      `UDP port ${port} is already in use on this machine (another WireGuard interface or program holds it): ` +
        `free it (\`ss -ulpn 'sport = :${port}'\` shows who), or give this node another listenPort`,
      { code: "port_in_use" },
    );
  }
}

/**
 * The kernel's WireGuard when this kernel has it (as wg-quick prefers), else wireguard-go, which forks
 * into the background once its TUN device and UAPI socket exist.
 */
async function createLink(sys, ifname, env) {
  if ((await sys.run(["ip", "link", "add", ifname, "type", "wireguard"])).code === 0) return;
  const binary = env.WG_QUICK_USERSPACE_IMPLEMENTATION || "wireguard-go";
  const result = await sys.run([binary, ifname], { daemon: true });
  if (result.code !== 0 || !(await interfaceExists(sys, ifname))) {
    const detail = result.stderr.trim().split("\n").filter(Boolean).pop() ?? `exit ${result.code}`;
    throw new OperationError(`${binary} ${ifname} did not create the interface: ${detail}`);
  }
}

/** Creates the link in `birthSys`'s namespace and moves it into `sys`'s; a link that cannot move is deleted again. */
async function createAndMove(birthSys, sys, ifname, env) {
  await createLink(birthSys, ifname, env);
  try {
    await birthSys.check(["ip", "link", "set", "dev", ifname, "netns", sys.netns]);
  } catch (error) {
    await birthSys.run(["ip", "link", "del", "dev", ifname]);
    throw error;
  }
}

/**
 * Removes the interface. Deleting the link also ends wireguard-go, which then removes its socket;
 * wait for that so the caller can rely on the daemon being gone.
 */
export async function takeDown({ sys, ifname, method, wgQuickPath }) {
  if (!(await interfaceExists(sys, ifname))) return { action: "absent" };
  if (method === "wg-quick") {
    await sys.check(["wg-quick", "down", wgQuickPath]);
    return { action: "removed" };
  }
  await removeDefaultRouteRules(sys, ifname);
  await sys.check(["ip", "link", "del", "dev", ifname]);
  const socket = `/run/wireguard/${ifname}.sock`;
  for (let waited = 0; waited < 5_000; waited += 50) {
    if ((await sys.run(["test", "-e", socket])).code !== 0) return { action: "removed" };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new OperationError(`${ifname} is gone but ${socket} is still there: is a stale wireguard-go running?`);
}
