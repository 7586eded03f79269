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

/** @param {import("./system.mjs").System} sys @param {string[]} wanted */
export async function syncAddresses(sys, ifname, wanted) {
  const links = JSON.parse(await sys.check(["ip", "-j", "address", "show", "dev", ifname]));
  const current = (links[0]?.addr_info ?? [])
    .filter((info) => info.scope !== "link") // the kernel's own fe80:: address is not ours
    .map((info) => interfaceAddress(`${info.local}/${info.prefixlen}`));
  const desired = wanted.map(interfaceAddress);
  for (const stale of current.filter((address) => !desired.includes(address))) {
    await sys.check(["ip", "address", "del", stale, "dev", ifname]);
  }
  for (const missing of desired.filter((address) => !current.includes(address))) {
    await sys.check(["ip", "address", "add", missing, "dev", ifname]);
  }
}

/**
 * @param {import("./system.mjs").System} sys
 * @param {string[]} allowedIps every peer's AllowedIPs
 * @param {string | null} table wg-quick's Table: null/"auto" = main, "off" = no routes, else that table
 * @returns {Promise<string[]>} the routes the interface ends up with (for the command's report)
 */
export async function syncRoutes(sys, ifname, allowedIps, table) {
  if (table === "off") return [];
  const tableArgs = table && table !== "auto" ? ["table", table] : [];
  const prefixes = [...new Set(allowedIps.map((prefix) => canonicalPrefix(prefix)))];
  const defaults = prefixes.filter((prefix) => prefix.endsWith("/0"));
  // A /0 in the main table would swallow the tunnel's own UDP packets: wg-quick's fwmark rules instead.
  await syncDefaultRoutes(sys, ifname, tableArgs.length ? [] : defaults);
  const specific = tableArgs.length ? prefixes : prefixes.filter((prefix) => !prefix.endsWith("/0"));

  const connected = await deviceRoutes(sys, ifname, ["proto", "kernel", ...tableArgs]);
  const desired = specific.filter((prefix) => !connected.some((route) => covers(route, prefix)));
  const current = (await deviceRoutes(sys, ifname, tableArgs)).filter((route) => !connected.includes(route));
  for (const stale of current.filter((route) => !desired.includes(route))) {
    await sys.check(["ip", family(stale), "route", "del", stale, "dev", ifname, ...tableArgs]);
  }
  for (const missing of desired.filter((route) => !current.includes(route))) {
    await sys.check(["ip", family(missing), "route", "add", missing, "dev", ifname, ...tableArgs]);
  }
  return [...desired, ...defaults];
}

const family = (prefix) => (parsePrefix(prefix).family === 4 ? "-4" : "-6");

/** Routes through the interface in both families, canonical, with their lengths. */
async function deviceRoutes(sys, ifname, selectors) {
  const routes = [];
  /** @type {Array<[string, 4 | 6]>} */
  const families = [
    ["-4", 4],
    ["-6", 6],
  ];
  for (const [flag, defaultFamily] of families) {
    const listed = JSON.parse((await sys.check(["ip", "-j", flag, "route", "show", "dev", ifname, ...selectors])) || "[]");
    for (const { dst } of listed) {
      if (dst.startsWith("fe80:") || dst.startsWith("ff00:") || dst.startsWith("multicast")) continue; // kernel's
      routes.push(canonicalPrefix(dst, defaultFamily));
    }
  }
  return routes;
}
