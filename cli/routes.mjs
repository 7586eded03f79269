// Addresses and routes of a WireGuard interface, synced to a config the way wg-quick sets them up:
// one `ip route add <prefix> dev <if>` per AllowedIPs prefix that no connected route of the interface
// already covers. Syncing (remove what is stale, add what is missing) makes re-applying idempotent.
import { canonicalPrefix, covers, parsePrefix } from "./cidr.mjs";
import { syncDefaultRoutes } from "./default-route.mjs";

/** `ip -j address` spelling of an interface address: host address kept, length attached. */
function interfaceAddress(cidr) {
  const [address, length] = cidr.split("/");
  const family = address.includes(":") ? 6 : 4;
  const canonical = canonicalPrefix(`${address}/${family === 4 ? 32 : 128}`).split("/")[0];
  return `${canonical}/${length ?? (family === 4 ? 32 : 128)}`;
}

/**
 * @param {import("./system.mjs").System} sys @param {string[]} wanted
 * @returns {Promise<boolean>} whether an address was added or removed
 */
export async function syncAddresses(sys, ifname, wanted) {
  const links = JSON.parse(await sys.check(["ip", "-j", "address", "show", "dev", ifname]));
  const current = (links[0]?.addr_info ?? [])
    .filter((info) => info.scope !== "link") // the kernel's own fe80:: address is not ours
    .map((info) => interfaceAddress(`${info.local}/${info.prefixlen}`));
  const desired = wanted.map(interfaceAddress);
  for (const stale of current.filter((address) => !desired.includes(address))) {
    await sys.check(["ip", "address", "del", stale, "dev", ifname]);
  }
  const missing = desired.filter((address) => !current.includes(address));
  for (const address of missing) await sys.check(["ip", "address", "add", address, "dev", ifname]);
  return missing.length > 0 || current.some((address) => !desired.includes(address));
}

/**
 * @param {import("./system.mjs").System} sys
 * @param {string[]} allowedIps every peer's AllowedIPs
 * @param {string | null} table wg-quick's Table: null/"auto" = main, "off" = no routes, else that table
 * @param {() => Promise<void>} [between] run after the missing routes are added and before the stale ones go
 *   (the peers' change: a route is in place before traffic for it arrives, and stays until none does)
 * @returns {Promise<string[]>} the routes the interface ends up with (for the command's report)
 */
export async function syncRoutes(sys, ifname, allowedIps, table, between) {
  if (table === "off") {
    await between?.();
    return [];
  }
  const tableArgs = table && table !== "auto" ? ["table", table] : [];
  const prefixes = [...new Set(allowedIps.map((prefix) => canonicalPrefix(prefix)))];
  const defaults = prefixes.filter((prefix) => prefix.endsWith("/0"));
  const specific = tableArgs.length ? prefixes : prefixes.filter((prefix) => !prefix.endsWith("/0"));

  // One read per family (each a process, on a failover's critical path): the kernel's connected routes and ours.
  const listed = await deviceRoutes(sys, ifname, tableArgs);
  const connected = listed.filter((route) => route.kernel).map((route) => route.prefix);
  const desired = specific.filter((prefix) => !connected.some((route) => covers(route, prefix)));
  const current = listed.filter((route) => !route.kernel).map((route) => route.prefix);
  for (const missing of desired.filter((route) => !current.includes(route))) {
    await sys.check(["ip", family(missing), "route", "add", missing, "dev", ifname, ...tableArgs]);
  }
  await between?.();
  for (const stale of current.filter((route) => !desired.includes(route))) {
    await sys.check(["ip", family(stale), "route", "del", stale, "dev", ifname, ...tableArgs]);
  }
  // A /0 in the main table would swallow the tunnel's own UDP packets: wg-quick's fwmark rules instead. After
  // the specific routes, which a gateway's failover waits for (it reads the fwmark even when it has no /0).
  await syncDefaultRoutes(sys, ifname, tableArgs.length ? [] : defaults);
  return [...desired, ...defaults];
}

const family = (prefix) => (parsePrefix(prefix).family === 4 ? "-4" : "-6");

/** Routes through the interface in both families, canonical, with their lengths, and whether the kernel made each. */
async function deviceRoutes(sys, ifname, selectors) {
  const routes = [];
  /** @type {Array<[string, 4 | 6]>} */
  const families = [
    ["-4", 4],
    ["-6", 6],
  ];
  for (const [flag, defaultFamily] of families) {
    const listed = JSON.parse((await sys.check(["ip", "-j", flag, "route", "show", "dev", ifname, ...selectors])) || "[]");
    for (const { dst, protocol } of listed) {
      if (dst.startsWith("fe80:") || dst.startsWith("ff00:") || dst.startsWith("multicast")) continue; // kernel's
      routes.push({ prefix: canonicalPrefix(dst, defaultFamily), kernel: protocol === "kernel" });
    }
  }
  return routes;
}
