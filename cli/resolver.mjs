// The DNS line of an interface's wg-quick file, applied to the resolver that serves the interface's
// processes, and removed again. Preference: a namespace gets its own resolv.conf; else systemd-resolved
// with split DNS; else resolvconf the way wg-quick calls it; else a note. The overlay's DNS servers
// answer for the network's zone only and REFUSE every other name, which is why split DNS matters.
import { join } from "node:path";
import { readText, removeEmptyDirs, removeFile, writeSharedFile } from "./files.mjs";

/**
 * What was applied where, kept in the device file so `down` and a re-apply know what to undo.
 * `file`, `previous` (its content before wgo wrote it) and `createdDirs`: the namespace's resolv.conf.
 * `record`: resolvconf's record name.
 * @typedef {{ servers: string[], search: string[], via: "netns" | "systemd-resolved" | "resolvconf" | "wg-quick" | "none",
 *   interface: string, netns: string | null, file?: string, previous?: string | null, createdDirs?: string[],
 *   record?: string }} DnsRecord
 * @typedef {{ netnsEtc: string, interfaceOrder: string }} ResolverPaths
 */

/** WGO_NETNS_ETC and WGO_RESOLVCONF_ORDER move the host files, for tests. @returns {ResolverPaths} */
export function resolverPaths(env) {
  return {
    netnsEtc: env.WGO_NETNS_ETC || "/etc/netns",
    interfaceOrder: env.WGO_RESOLVCONF_ORDER || "/etc/resolvconf/interface-order",
  };
}

/** The first line of every resolv.conf wgo writes: how `down` tells its own file from someone else's. */
const MARKER = "# written by wgo";

/**
 * Applies `servers` and `search` for `ifname`. `previous` is this interface's own record from an
 * earlier apply (same interface and namespace), so a re-apply keeps the file content saved first.
 * @param {{ sys: import("./system.mjs").System, ifname: string, netns: string | null, servers: string[],
 *   search: string[], previous: DnsRecord | null, paths: ResolverPaths }} options
 * @returns {Promise<{ record: DnsRecord, notes: string[] }>}
 */
export async function applyDns({ sys, ifname, netns, servers, search, previous, paths }) {
  const base = { servers, search, interface: ifname, netns };
  if (netns) return { record: { ...base, ...writeNamespaceResolvConf(ifname, netns, servers, search, previous, paths) }, notes: [] };
  if (await resolvedRunning(sys)) {
    await sys.check(["resolvectl", "dns", ifname, ...servers]);
    // `~domain` is a routing-only domain: names under it go to these servers, everything else keeps
    // the host's resolvers. An empty argument clears what an earlier revision set.
    await sys.check(["resolvectl", "domain", ifname, ...(search.length ? search.map((domain) => `~${domain}`) : [""])]);
    // A link with only routing domains is no default route anyway; saying so also covers older
    // resolved versions, and those without the verb simply refuse it.
    if (search.length) await sys.run(["resolvectl", "default-route", ifname, "false"]);
    return { record: { ...base, via: "systemd-resolved" }, notes: [] };
  }
  if (await hasTool(sys, "resolvconf")) {
    const record = `${resolvconfPrefix(paths.interfaceOrder)}${ifname}`;
    await sys.check(["resolvconf", "-a", record, "-m", "0", "-x"], { input: resolvConfLines(servers, search) });
    const names = search.length ? `names under ${search.join(", ")}` : "the network's names";
    return {
      record: { ...base, via: "resolvconf", record },
      notes: [`resolvconf has no split DNS: ${servers.join(", ")} now come first for every name, and answer only ${names}`],
    };
  }
  const names = search.length ? `names under ${search.join(", ")}` : "the network's names";
  return {
    record: { ...base, via: "none" },
    notes: [
      `DNS ${servers.join(", ")} was not applied: no systemd-resolved or resolvconf here; send ${names} to ` +
        `${servers.join(", ")} (split DNS: these servers refuse every other name)`,
    ],
  };
}

/**
 * Undoes `record`. `sys` must run where the record was applied (its namespace).
 * @param {{ sys: import("./system.mjs").System, record: DnsRecord }} options
 * @returns {Promise<string[]>} notes for what was left as it is
 */
export async function removeDns({ sys, record }) {
  if (record.via === "netns" && record.file) return restoreNamespaceResolvConf(record);
  // revert fails once the link is gone, and resolved forgets a deleted link's settings by itself.
  if (record.via === "systemd-resolved") await sys.run(["resolvectl", "revert", record.interface]);
  if (record.via === "resolvconf" && record.record) await sys.run(["resolvconf", "-d", record.record, "-f"]);
  return [];
}

/**
 * `ip netns exec NS` bind-mounts /etc/netns/NS/resolv.conf over /etc/resolv.conf for every process it
 * starts in NS, so this file is the namespace's whole resolver configuration.
 */
function writeNamespaceResolvConf(ifname, netns, servers, search, previous, paths) {
  const file = join(paths.netnsEtc, netns, "resolv.conf");
  const current = readText(file);
  const ours = current?.startsWith(MARKER) ?? false;
  // A re-apply over our own file keeps what was there before the first apply; an earlier record for
  // another file, or a file someone replaced since, does not count.
  const kept = ours && previous?.via === "netns" && previous.file === file ? previous : null;
  const header = `${MARKER} for ${ifname}: \`wgo down\` restores the file that was here before\n`;
  const createdDirs = writeSharedFile(file, header + resolvConfLines(servers, search));
  return {
    via: /** @type {const} */ ("netns"),
    file,
    previous: kept ? (kept.previous ?? null) : ours ? null : current,
    createdDirs: kept?.createdDirs?.length ? kept.createdDirs : createdDirs,
  };
}

function restoreNamespaceResolvConf(record) {
  const file = /** @type {string} */ (record.file);
  const current = readText(file);
  if (current === null) return [];
  if (!current.startsWith(MARKER)) return [`${file} was replaced since wgo wrote it: left as it is`];
  if (typeof record.previous === "string") writeSharedFile(file, record.previous);
  else {
    removeFile(file);
    removeEmptyDirs(record.createdDirs ?? []);
  }
  return [];
}

/** resolv.conf syntax, which resolvconf reads on stdin too. */
function resolvConfLines(servers, search) {
  return `${servers.map((server) => `nameserver ${server}\n`).join("")}${search.length ? `search ${search.join(" ")}\n` : ""}`;
}

async function hasTool(sys, tool) {
  return (await sys.run(["sh", "-c", `command -v ${tool}`])).code === 0;
}

/** Installed is not enough: on a host where resolved is stopped, its settings would go nowhere. */
async function resolvedRunning(sys) {
  return (await hasTool(sys, "resolvectl")) && (await sys.run(["resolvectl", "status"])).code === 0;
}

/**
 * Debian's resolvconf orders records by /etc/resolvconf/interface-order; wg-quick names its record
 * after the first `NAME*` pattern there (`tun.wg0`), so the overlay's servers are listed first.
 */
function resolvconfPrefix(interfaceOrder) {
  for (const line of (readText(interfaceOrder) ?? "").split("\n")) {
    const match = /^([A-Za-z0-9-]+)\*$/.exec(line.trim());
    if (match) return `${match[1]}.`;
  }
  return "";
}
