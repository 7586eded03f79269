// A device's local endpoints (docs/nat.md): where a peer on the same LAN can reach its WireGuard socket
// without going out through the NAT and back (which many home routers do not do: no hairpinning). They are
// the addresses of the namespace the socket lives in (with --netns, the interface's namespace, not the one
// wgo runs in), each with the interface's listen port; loopback, link-local and the WireGuard interface's
// own addresses are of no use to another machine. Sent with every heartbeat: the server keeps them as
// candidates and hands one to a peer that comes from the same public address.
import { isIP } from "node:net";

/** The server's cap (src/wire/heartbeat.ts). */
export const MAX_LOCAL_ENDPOINTS = 8;

/** Addresses no other machine can reach this one at: loopback, link-local, unspecified, multicast. */
function unreachableFromLan(address) {
  if (isIP(address) === 4) return /^(127\.|169\.254\.|0\.)/.test(address) || Number(address.split(".")[0]) >= 224;
  const lower = address.toLowerCase();
  return lower === "::1" || lower === "::" || /^fe[89ab]/.test(lower) || lower.startsWith("ff");
}

/**
 * The endpoints `ip -j address show` lists, IPv4 first (what LANs mostly speak), in interface order, at most 8.
 * @param {Array<{ ifname: string, flags?: string[], link_type?: string,
 *   addr_info?: Array<{ local?: string, scope?: string, tentative?: boolean, dadfailed?: boolean }> }>} links
 * @param {{ ifname: string, listenPort: number }} socket the WireGuard interface and its port
 * @returns {string[]}
 */
export function localEndpointsOf(links, { ifname, listenPort }) {
  const v4 = [];
  const v6 = [];
  for (const link of links) {
    // A link that is down carries nothing; a loopback never leaves the machine.
    if (link.ifname === ifname || link.ifname === "lo" || link.link_type === "loopback" || !(link.flags ?? []).includes("UP")) continue;
    for (const info of link.addr_info ?? []) {
      const address = info.local ?? "";
      if (isIP(address) === 0 || info.scope === "link" || info.scope === "host" || info.tentative || info.dadfailed) continue;
      if (unreachableFromLan(address)) continue;
      if (isIP(address) === 4) v4.push(`${address}:${listenPort}`);
      else v6.push(`[${address}]:${listenPort}`);
    }
  }
  return [...new Set([...v4, ...v6])].slice(0, MAX_LOCAL_ENDPOINTS);
}

/**
 * Read where the socket lives: `sys` runs in the interface's namespace, where wgo brought it up (a socket
 * stays in the namespace it was made in, and wgo makes the link there).
 * @param {import("./system.mjs").System} sys
 */
export async function readLocalEndpoints(sys, ifname, listenPort) {
  const links = JSON.parse((await sys.check(["ip", "-j", "address", "show"])) || "[]");
  return localEndpointsOf(links, { ifname, listenPort });
}
