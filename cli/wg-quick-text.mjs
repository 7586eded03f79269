// The server's wg-quick text, turned into what a client applies: the private key filled in, and for
// the setconf method the file `wg setconf` accepts (what `wg-quick strip` prints) plus the parts
// wg-quick would have done itself (addresses, MTU, routes, the forwarding sysctl).
import { isIP } from "node:net";
import { OperationError } from "./errors.mjs";

/** The server never holds private keys; its text carries this line for the client to replace. */
export const PRIVATE_KEY_PLACEHOLDER = "REPLACE_WITH_PRIVATE_KEY";

// Keys only wg-quick understands; `wg setconf` rejects a file that has them.
const WG_QUICK_ONLY = new Set(["address", "dns", "mtu", "table", "preup", "postup", "predown", "postdown", "saveconfig"]);

/** Replaces the placeholder line; a text with a real key (or none) is refused rather than guessed at. */
export function fillPrivateKey(text, privateKey) {
  const placeholder = new RegExp(`^(\\s*PrivateKey\\s*=\\s*)${PRIVATE_KEY_PLACEHOLDER}\\s*$`, "m");
  if (!placeholder.test(text)) throw new OperationError(`the server's config has no "PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}" line`);
  return text.replace(placeholder, (_line, prefix) => `${prefix}${privateKey}`);
}

/**
 * The text as wg and wg-quick accept it. A peer the server keeps with no AllowedIPs (a pair moved onto a
 * relay: the peer's own entry stays, so WireGuard keeps retrying the direct path underneath, docs/nat.md)
 * comes as `AllowedIPs = ` with nothing after it, which `wg setconf`/`syncconf` refuse ("Line unrecognized").
 * Without the line the peer has none: setconf gives it none, syncconf takes away what it had.
 */
export function wgQuickFile(text) {
  return text.replace(/^[ \t]*AllowedIPs[ \t]*=[ \t,]*(#.*)?(?:\r?\n|$(?![\s\S]))/gim, "");
}

/** The routing revision written in the header comment of a config file, or null. */
export function revisionInText(text) {
  const match = /routing revision (\d+)/.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * `dns` holds the DNS line's server addresses and `dnsSearch` its other entries: wg-quick reads an entry
 * that is not an IP address as a search domain (`DNS = 10.0.0.1, corp.example`).
 * @typedef {{ setconf: string, addresses: string[], allowedIps: string[], mtu: number | null, dns: string[],
 *   dnsSearch: string[], table: string | null, sysctls: string[], ignored: string[] }} WgQuickPlan
 * @returns {WgQuickPlan}
 */
export function planWgQuick(text) {
  /** @type {WgQuickPlan} */
  const plan = { setconf: "", addresses: [], allowedIps: [], mtu: null, dns: [], dnsSearch: [], table: null, sysctls: [], ignored: [] };
  const out = [];
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim(); // wg-quick drops comments the same way
    if (!line) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1].toLowerCase();
      out.push(line);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 0) throw new OperationError(`config line is not "key = value": ${raw.trim()}`);
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    const lower = key.toLowerCase();
    if (section === "interface" && WG_QUICK_ONLY.has(lower)) {
      consumeWgQuickKey(plan, lower, value, line);
      continue;
    }
    if (section === "interface" && lower === "privatekey" && value === PRIVATE_KEY_PLACEHOLDER) {
      throw new OperationError("the private key was not filled in");
    }
    if (section === "peer" && lower === "allowedips") {
      plan.allowedIps.push(...list(value));
      if (list(value).length === 0) continue; // see wgQuickFile
    }
    out.push(`${key} = ${value}`);
  }
  plan.setconf = `${out.join("\n")}\n`;
  return plan;
}

function consumeWgQuickKey(plan, key, value, line) {
  if (key === "address") plan.addresses.push(...list(value));
  else if (key === "dns") for (const entry of list(value)) consumeDnsEntry(plan, entry);
  else if (key === "mtu") plan.mtu = Number(value);
  else if (key === "table") plan.table = value;
  else if (key === "postup" || key === "preup") collectSysctls(plan, value);
  else plan.ignored.push(line);
}

/**
 * The entries end up in resolv.conf lines and resolvectl arguments, so a search domain must be a
 * plain domain name; anything else is reported as not applied rather than written there.
 */
function consumeDnsEntry(plan, entry) {
  if (isIP(entry) !== 0) plan.dns.push(entry);
  else if (/^(?!-)[A-Za-z0-9_-]{1,63}(?:\.(?!-)[A-Za-z0-9_-]{1,63})*\.?$/.test(entry)) plan.dnsSearch.push(entry.replace(/\.$/, ""));
  else plan.ignored.push(`DNS entry ${entry}: neither an IP address nor a domain name`);
}

const list = (value) =>
  value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);

/**
 * Hooks are shell commands from the server, run as root by wg-quick. The setconf method runs none of
 * them; it only recognises `sysctl -w net.…=…` (the forwarding switch the server emits for gateways),
 * and applies that itself, so a compromised server cannot run arbitrary commands through it.
 */
function collectSysctls(plan, command) {
  for (const step of command
    .split(/;|&&|\|\|/)
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^sysctl\s+(?:-[a-zA-Z]+\s+)*(net\.[\w./-]+)\s*=\s*([\w.-]+)$/.exec(step);
    if (match) plan.sysctls.push(`${match[1]}=${match[2]}`);
    else plan.ignored.push(`hook: ${step}`);
  }
}
