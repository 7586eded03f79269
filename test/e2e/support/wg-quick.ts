// Pure translation of wg-quick text into what `wg setconf` and `ip` need, so the e2e tests apply a
// server-made config the way a real client would (wg-quick(8)), minus the parts that touch the host.

/** The line the server leaves for the client: it never sees private keys (DESIGN: Network model). */
export const PRIVATE_KEY_PLACEHOLDER = "REPLACE_WITH_PRIVATE_KEY";

// Keys wg-quick consumes itself; `wg setconf` rejects them.
const WG_QUICK_ONLY_KEYS = new Set(["address", "dns", "mtu", "table", "preup", "postup", "predown", "postdown", "saveconfig"]);

export interface WgQuickPlan {
  /** The config with wg-quick-only keys removed and the private key filled in. */
  setconf: string;
  /** `Address` entries in CIDR form, in order. */
  addresses: string[];
  /** Every peer's AllowedIPs, in order (routes are derived from these, as wg-quick does). */
  allowedIps: string[];
  mtu?: number;
  /** `net.*` sysctls found in PreUp/PostUp (`key=value`); the only hook effect we reproduce. */
  sysctls: string[];
  /** wg-quick-only lines we deliberately do not apply (DNS, Table, other hooks), for test logs. */
  ignored: string[];
}

export function planWgQuick(text: string, privateKey: string): WgQuickPlan {
  const plan: WgQuickPlan = { setconf: "", addresses: [], allowedIps: [], sysctls: [], ignored: [] };
  const out: string[] = [];
  let section = "";
  let placeholderSeen = false;

  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim(); // wg-quick strips comments the same way
    if (!line) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      out.push(line);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 0) throw new Error(`wg-quick: not a key = value line: ${rawLine}`);
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    const lowerKey = key.toLowerCase();

    if (section === "interface" && WG_QUICK_ONLY_KEYS.has(lowerKey)) {
      if (lowerKey === "address") plan.addresses.push(...splitList(value));
      else if (lowerKey === "mtu") plan.mtu = Number(value);
      else if (lowerKey === "preup" || lowerKey === "postup") collectSysctls(value, plan);
      else plan.ignored.push(line);
      continue;
    }
    if (section === "interface" && lowerKey === "privatekey") {
      // A real key here would mean the server handed out a secret: fail loudly rather than use it.
      if (value !== PRIVATE_KEY_PLACEHOLDER) throw new Error("wg-quick: PrivateKey is not the placeholder line");
      placeholderSeen = true;
      out.push(`${key} = ${privateKey}`);
      continue;
    }
    if (section === "peer" && lowerKey === "allowedips") plan.allowedIps.push(...splitList(value));
    out.push(`${key} = ${value}`);
  }

  if (!placeholderSeen) throw new Error(`wg-quick: no "PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}" line`);
  plan.setconf = `${out.join("\n")}\n`;
  return plan;
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

function collectSysctls(command: string, plan: WgQuickPlan): void {
  for (const step of command
    .split(/;|&&|\|\|/)
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^sysctl\s+(?:-[a-z]+\s+)*([\w./-]+)\s*=\s*(\S+)$/.exec(step);
    // Only `net.*` keys: they are per network namespace, so applying them cannot touch the machine.
    if (match && match[1]!.startsWith("net.")) plan.sysctls.push(`${match[1]}=${match[2]}`);
    else plan.ignored.push(step);
  }
}
