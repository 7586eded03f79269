// Each network a gateway serves lives in its own routing domain on the gateway host (docs/agents.md,
// "Tenancy: one routing domain per network"): a network namespace holding that network's WireGuard
// interfaces, routes and DNS server, joined to the host by one veth pair whose small link subnet is unique
// on this host. This file is the pure planning half: names, the link subnet, which network may send what
// to the host (egress claims), and the nftables rulesets. cli/gateway/domain-apply.mjs carries them out.
import { createHash } from "node:crypto";
import { covers, formatPrefix, outermost, parsePrefix } from "../cidr.mjs";

const hash8 = (text) => createHash("sha256").update(text).digest("hex").slice(0, 8);

/** The host-side veth ends all start with this: the host's ruleset matches them as `wgoh*`. */
export const HOST_VETH_PREFIX = "wgoh";
/** The host's table (inet: both families); the per-namespace table has its own name. */
export const HOST_TABLE = "wgo_gateway";
export const DOMAIN_TABLE = "wgo_domain";

/**
 * Names of a network's domain on this host. `hostNetns` is `--netns` (the namespace that plays the host),
 * or null for the real host: per-network namespaces sit beside it, named after it, so two agents on one
 * machine (each with its own --netns, as the e2e labs run) never share one.
 */
export function domainNames(hostNetns, networkId) {
  const id = hash8(networkId);
  return {
    netns: `${hostNetns ?? "wgo"}-n${id}`,
    hostIf: `${HOST_VETH_PREFIX}${id}`,
    nsIf: `wgon${id}`,
  };
}

/** Link subnets come from 169.254.64.0/18: link-local (never an overlay or LAN range in practice), 4096 /30s. */
const POOL_V4 = parsePrefix("169.254.64.0/18");
const SLOTS = 4096;

/** Does any of `prefixes` overlap `prefix` (one contains the other)? */
export const overlapsAny = (prefix, prefixes) =>
  prefixes.some((other) => parsePrefix(other).family === parsePrefix(prefix).family && (covers(other, prefix) || covers(prefix, other)));

/**
 * The network's link subnet: a /30 at a slot derived from its id, the next free one when that slot overlaps
 * anything in `avoid` (other networks' link subnets, the host's own connected subnets, this network's overlay
 * CIDR). The IPv6 twin (a ULA /64 at the same slot) is used only when the network routes IPv6 egress.
 * @returns {{ v4: string, hostV4: string, nsV4: string, hostV6: string, nsV6: string }}
 */
export function chooseLinkSubnet(networkId, avoid) {
  const start = Number.parseInt(hash8(`link:${networkId}`), 16) % SLOTS;
  for (let step = 0; step < SLOTS; step += 1) {
    const slot = (start + step) % SLOTS;
    const base = POOL_V4.value + BigInt(slot * 4);
    const v4 = formatPrefix({ family: 4, value: base, length: 30 });
    if (overlapsAny(v4, avoid)) continue;
    const address = (offset) => formatPrefix({ family: 4, value: base + BigInt(offset), length: 30 });
    const v6 = `fd77:676f:6e:${slot.toString(16)}`;
    return { v4, hostV4: address(1), nsV4: address(2), hostV6: `${v6}::1/64`, nsV6: `${v6}::2/64` };
  }
  throw new Error("no free link subnet left in 169.254.64.0/18 on this host");
}

/**
 * Which egress destinations each network may send to the host. A destination overlapping one another network
 * routes here is never shared: a network that already held it keeps it (so a tenant cannot take away, or
 * share, another's LAN by writing a policy), and a new claim that overlaps anything another network wants or
 * holds is denied, both sides when both are new (fail closed: overlapping ranges are forwarded for nobody new).
 * @param {Record<string, string[]>} held   what each network was granted last time (this host's state)
 * @param {Record<string, string[]>} wanted egress destinations of each served network's nodes now
 * @returns {{ granted: Record<string, string[]>, denied: Record<string, string[]> }}
 */
export function resolveEgressClaims(held, wanted) {
  const keeps = Object.fromEntries(Object.entries(wanted).map(([net, list]) => [net, (held[net] ?? []).filter((p) => list.includes(p))]));
  /** @type {Record<string, string[]>} */
  const granted = {};
  /** @type {Record<string, string[]>} */
  const denied = {};
  for (const [net, list] of Object.entries(wanted)) {
    granted[net] = [];
    denied[net] = [];
    const others = Object.keys(wanted).filter((other) => other !== net);
    const heldByOthers = others.flatMap((other) => keeps[other]);
    const wantedByOthers = others.flatMap((other) => wanted[other]);
    for (const prefix of [...new Set(list)].sort()) {
      const mine = keeps[net].includes(prefix);
      const free = !overlapsAny(prefix, heldByOthers) && (mine || !overlapsAny(prefix, wantedByOthers));
      (free ? granted[net] : denied[net]).push(prefix);
    }
  }
  return { granted, denied };
}

/**
 * The host's table: a network's veth may send only to its granted destinations, never into another veth
 * (another network, or back into its own), nor to the host itself; nothing enters a veth but replies.
 * @param {Array<{ hostIf: string, granted: string[] }>} domains
 */
export function hostRuleset(domains) {
  const veths = `"${HOST_VETH_PREFIX}*"`;
  const allow = [];
  for (const { hostIf, granted } of [...domains].sort((a, b) => a.hostIf.localeCompare(b.hostIf))) {
    for (const [family, keyword] of /** @type {const} */ ([
      [4, "ip"],
      [6, "ip6"],
    ])) {
      const set = outermost(granted, family);
      if (set.length > 0) allow.push(`    iifname "${hostIf}" ${keyword} daddr { ${set.join(", ")} } accept`);
    }
  }
  return [
    `table inet ${HOST_TABLE} {`,
    "  chain forward {",
    "    type filter hook forward priority filter - 5; policy accept;",
    `    iifname ${veths} oifname ${veths} drop`,
    `    oifname ${veths} ct state established,related accept`,
    `    oifname ${veths} drop`,
    ...allow,
    `    iifname ${veths} drop`,
    "  }",
    "  chain input {",
    "    type filter hook input priority filter - 5; policy accept;",
    `    iifname ${veths} ct state established,related accept`,
    `    iifname ${veths} icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert } accept`,
    `    iifname ${veths} drop`,
    "  }",
    "}",
    "",
  ].join("\n");
}

/**
 * Inside a network's namespace: what leaves for the host is masqueraded to the link address (the host never
 * needs a route to an overlay CIDR, and two tenants may use the same one), and from the veth only replies
 * come in: the host side cannot open connections into the overlay or to the DNS server.
 */
export function domainRuleset(nsIf) {
  return [
    `table inet ${DOMAIN_TABLE} {`,
    "  chain postrouting {",
    "    type nat hook postrouting priority srcnat; policy accept;",
    `    oifname "${nsIf}" masquerade`,
    "  }",
    "  chain forward {",
    "    type filter hook forward priority filter; policy accept;",
    `    iifname "${nsIf}" ct state established,related accept`,
    `    iifname "${nsIf}" drop`,
    "  }",
    "  chain input {",
    "    type filter hook input priority filter; policy accept;",
    `    iifname "${nsIf}" ct state established,related accept`,
    `    iifname "${nsIf}" icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert } accept`,
    `    iifname "${nsIf}" drop`,
    "  }",
    "}",
    "",
  ].join("\n");
}

/** Replaces `table` atomically (one nft transaction): declare it, delete it, declare it anew with its rules. */
export const replaceTable = (table, ruleset) => `table inet ${table} {}\ndelete table inet ${table}\n${ruleset}`;

/** The egress destinations a node's config routes out of this host (routingIntent entries with role egress). */
export const egressOf = (config) =>
  (config?.routingIntent ?? []).filter((entry) => entry.role === "egress").map((entry) => formatPrefix(parsePrefix(entry.destinationCidr)));
