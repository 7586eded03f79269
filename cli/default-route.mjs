// AllowedIPs = 0.0.0.0/0 (or ::/0) the way wg-quick(8) installs it: a plain default route through the
// tunnel would also catch the tunnel's own encrypted UDP packets. Instead WireGuard marks its packets
// (fwmark), the default route goes into a table of that number, and two rules send only unmarked
// traffic there while keeping more specific main-table routes (suppress_prefixlength 0).

const FIRST_TABLE = 51820;

/** @param {import("./system.mjs").System} sys @returns {Promise<number | null>} */
async function currentFwmark(sys, ifname) {
  const text = (await sys.check(["wg", "show", ifname, "fwmark"])).trim();
  return text === "off" || text === "" ? null : Number(text);
}

/** The first table number from 51820 up that holds no routes (what wg-quick picks). */
async function freeTable(sys) {
  for (let table = FIRST_TABLE; ; table++) {
    const v4 = await sys.run(["ip", "-4", "route", "show", "table", String(table)]);
    const v6 = await sys.run(["ip", "-6", "route", "show", "table", String(table)]);
    if (!v4.stdout.trim() && !v6.stdout.trim()) return table;
  }
}

/** Deletes every copy of a rule (adding twice makes duplicates; deleting stops at the first failure). */
async function deleteRule(sys, familyFlag, rule) {
  for (let i = 0; i < 16 && (await sys.run(["ip", familyFlag, "rule", "del", ...rule])).code === 0; i++);
}

const rulesFor = (table) => [
  ["not", "fwmark", String(table), "table", String(table)],
  ["table", "main", "suppress_prefixlength", "0"],
];

/**
 * @param {import("./system.mjs").System} sys
 * @param {string[]} defaults the /0 prefixes the config wants ("0.0.0.0/0", "::/0")
 */
export async function syncDefaultRoutes(sys, ifname, defaults) {
  const mark = await currentFwmark(sys, ifname);
  if (defaults.length === 0 && mark === null) return;
  const table = mark ?? (await freeTable(sys));
  if (mark === null) await sys.check(["wg", "set", ifname, "fwmark", String(table)]);
  for (const [flag, prefix] of [
    ["-4", "0.0.0.0/0"],
    ["-6", "::/0"],
  ]) {
    const installed = (await sys.run(["ip", flag, "route", "show", "default", "dev", ifname, "table", String(table)])).stdout.trim() !== "";
    const wanted = defaults.includes(prefix);
    if (wanted && !installed) {
      await sys.check(["ip", flag, "route", "add", prefix, "dev", ifname, "table", String(table)]);
      for (const rule of rulesFor(table)) {
        await deleteRule(sys, flag, rule);
        await sys.check(["ip", flag, "rule", "add", ...rule]);
      }
      // Replies to marked packets must pass reverse-path filtering (wg-quick sets the same).
      if (flag === "-4") await sys.check(["sysctl", "-q", "-w", "net.ipv4.conf.all.src_valid_mark=1"]);
    }
    if (!wanted && installed) {
      await sys.check(["ip", flag, "route", "del", prefix, "dev", ifname, "table", String(table)]);
      for (const rule of rulesFor(table)) await deleteRule(sys, flag, rule);
    }
  }
}

/** Before the interface goes away: drop the rules that point at its table (routes go with the link). */
export async function removeDefaultRouteRules(sys, ifname) {
  const mark = await currentFwmark(sys, ifname);
  if (mark === null) return;
  for (const flag of ["-4", "-6"]) {
    for (const rule of rulesFor(mark)) await deleteRule(sys, flag, rule);
  }
}
