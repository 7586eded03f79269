// Access rules (docs/access.md) enforced with nftables. A node's config carries `accessRules`: what may
// reach it over the overlay (its inbound filter); a gateway's carries `forwardRules` for the routed
// destinations it is a hop for. Both become one table per WireGuard interface, replaced in one nft
// transaction; a network in open mode sends neither, and the table goes. Stateful: replies to an allowed
// flow pass both ways, so a denied pair that still holds a peer entry (one side may reach the other)
// carries only the allowed direction. A table is reloaded only when nft does not hold it as rendered (a
// comment names its rules): a reload resets the counters an operator reads to see which rule stopped a flow.
import { createHash } from "node:crypto";
import { outermost } from "./cidr.mjs";
import { runNft } from "./nft.mjs";

/** @typedef {{ from: string[], ports: string[] }} AccessRule */
/** @typedef {{ action: "drop" | "accept", from: string[], to: string[], ports: string[], rule: number }} ForwardRule */

const FAMILIES = /** @type {const} */ ([
  [4, "ip", "icmp"],
  [6, "ip6", "ipv6-icmp"],
]);

/** nft table names are [A-Za-z0-9_]; interface names may hold "-" and ".". */
export const accessTable = (iface) => `wgo_access_${iface.replace(/[^A-Za-z0-9_]/g, "_")}`;

/**
 * One port spec as nft match expressions for a family ("*": nothing to match; "other": any protocol but
 * TCP, UDP and ICMP). Port ranges of a protocol share one set.
 * @param {string[]} ports
 * @param {string} icmp
 */
function portMatches(ports, icmp) {
  if (ports.includes("*")) return [""];
  const matches = [];
  if (ports.includes("icmp")) matches.push(`meta l4proto ${icmp}`);
  for (const protocol of ["tcp", "udp"]) {
    if (ports.includes(protocol)) {
      matches.push(`meta l4proto ${protocol}`);
      continue;
    }
    const ranges = ports.filter((p) => p.startsWith(`${protocol}:`)).map((p) => p.slice(protocol.length + 1));
    if (ranges.length > 0) matches.push(`${protocol} dport { ${ranges.join(", ")} }`);
  }
  if (ports.includes("other")) matches.push(`meta l4proto != { tcp, udp, ${icmp} }`);
  return matches;
}

/** `ip saddr { ... }` for the prefixes of one family, or null when none is of it. */
function addressMatch(keyword, direction, prefixes, family) {
  const set = outermost(prefixes, family);
  return set.length > 0 ? `${keyword} ${direction} { ${set.join(", ")} }` : null;
}

/** @param {AccessRule[]} rules */
function inboundLines(rules) {
  return rules.flatMap((rule) =>
    FAMILIES.flatMap(([family, keyword, icmp]) => {
      const from = addressMatch(keyword, "saddr", rule.from, family);
      if (!from) return [];
      return portMatches(rule.ports, icmp).map((ports) => `    ${[from, ports, "accept"].filter(Boolean).join(" ")}`);
    }),
  );
}

/** @param {ForwardRule[]} rules */
function forwardLines(rules) {
  return rules.flatMap((rule) =>
    FAMILIES.flatMap(([family, keyword, icmp]) => {
      const from = addressMatch(keyword, "saddr", rule.from, family);
      const to = addressMatch(keyword, "daddr", rule.to, family);
      if (!from || !to) return [];
      return portMatches(rule.ports, icmp).map(
        (ports) => `    ${[from, to, ports, "counter", rule.action, `comment "rules.${rule.rule}"`].filter(Boolean).join(" ")}`,
      );
    }),
  );
}

/**
 * The interface's table: its input chain admits from the overlay only what `accessRules` allows; its
 * forward chain, for the routed `destinations` this node forwards to, applies `forwardRules` in order and
 * drops what none accepts (counted, so an operator sees what the policy stopped).
 * @param {{ iface: string, accessRules: AccessRule[], forwardRules?: ForwardRule[], destinations?: string[] }} access
 */
export function accessRuleset({ iface, accessRules, forwardRules = [], destinations = [] }) {
  const table = accessTable(iface);
  const first = `    iifname != "${iface}" accept`;
  const lines = [
    "  chain input {",
    "    type filter hook input priority filter; policy accept;",
    first,
    "    ct state established,related accept",
    ...inboundLines(accessRules),
    '    counter drop comment "no rule allows it"',
    "  }",
  ];
  const routed = FAMILIES.map(([family, keyword]) => addressMatch(keyword, "daddr", destinations, family)).filter(Boolean);
  if (routed.length > 0) {
    lines.push(
      "  chain forward {",
      "    type filter hook forward priority filter; policy accept;",
      `    iifname != "${iface}" accept`,
      "    ct state established,related accept",
      ...forwardLines(forwardRules),
      ...routed.map((match) => `    ${match} counter drop comment "no rule allows it"`),
      "  }",
    );
  }
  // The mark rides the input chain's first rule (a rule comment: nft 0.8 and any kernel nft runs on have them).
  lines[2] = `${first} comment "${rulesetMark(lines.join("\n"))}"`;
  return `table inet ${table} {}\ndelete table inet ${table}\ntable inet ${table} {\n${lines.join("\n")}\n}\n`;
}

/** A digest of the table's chains, so an unchanged ruleset is seen as loaded. */
const rulesetMark = (body) => `wgo ${createHash("sha256").update(body).digest("hex").slice(0, 16)}`;

/** Each chain's number of rules in a table's text: ours, or nft's listing of it (a rule a line in both). */
function chainShape(text) {
  const shape = [];
  let chain = null;
  for (const line of text.split("\n").map((one) => one.trim())) {
    const opened = /^chain (\S+) \{$/.exec(line);
    if (opened) chain = { name: opened[1], rules: 0 };
    else if (line === "}" && chain) {
      shape.push(`${chain.name}:${chain.rules}`);
      chain = null;
    } else if (chain && line !== "" && !line.startsWith("type ")) chain.rules++;
  }
  return shape.join(" ");
}

/**
 * Whether nft holds `script`'s table now: its mark, and every chain with as many rules (a missing table, a
 * flushed or deleted chain, a rule added by hand: not loaded, so the next apply restores it).
 */
async function alreadyLoaded(sys, iface, script) {
  const mark = /comment "(wgo [0-9a-f]+)"/.exec(script)?.[1];
  const listed = await sys.run(["nft", "list", "table", "inet", accessTable(iface)]);
  return listed.code === 0 && listed.stdout.includes(`comment "${mark}"`) && chainShape(listed.stdout) === chainShape(script);
}

/** Removes the interface's table (open mode, or `wgo down`); nft accepts it whether or not the table exists. */
export const removeAccessRuleset = (iface) => `table inet ${accessTable(iface)} {}\ndelete table inet ${accessTable(iface)}\n`;

/**
 * Makes the interface's filter what `config` says: its rules in policy mode, none in open mode. `held`
 * says whether a filter was loaded before (so open mode never needs nft on a machine that never had one).
 * Forward rules apply to the routed destinations the node is a hop for (its routingIntent).
 * @param {import("./system.mjs").System} sys
 * @param {string} dir a directory of ours for nft's script file
 * @param {string} iface
 * @param {{ accessRules?: AccessRule[], forwardRules?: ForwardRule[], routingIntent?: { role: string, destinationCidr: string }[] }} config
 * @param {boolean} held
 * @returns {Promise<boolean>} whether a filter is loaded now
 */
export async function enforceAccess(sys, dir, iface, config, held) {
  if (!config.accessRules) {
    if (held) await runNft(sys, dir, removeAccessRuleset(iface));
    return false;
  }
  const destinations = (config.routingIntent ?? []).filter((entry) => entry.role !== "source").map((entry) => entry.destinationCidr);
  const script = accessRuleset({ iface, accessRules: config.accessRules, forwardRules: config.forwardRules ?? [], destinations });
  // Checked against the kernel, not a remembered flag: after a reboot, a flush or a hand edit it loads again.
  if (!(await alreadyLoaded(sys, iface, script))) await runNft(sys, dir, script);
  return true;
}

/** Removes the interface's filter when one was loaded (`wgo down`, a node leaving a gateway). */
export async function dropAccess(sys, dir, iface, held) {
  if (held) await runNft(sys, dir, removeAccessRuleset(iface));
}
