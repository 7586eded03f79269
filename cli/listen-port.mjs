// A device's WireGuard listen port, kept across `wgo up`, re-applies and heartbeat --apply. A device's
// config names no ListenPort (WireGuard then binds a random one at each creation), but a peer behind NAT
// is reached at the mapping its NAT made for that port, the mapping the server learned from the gateways
// (docs/nat.md): a new port on every `up` would throw it away. So when the config names none, wgo picks
// one once per device, free when picked, keeps it in the device file and writes it into every text it
// applies. A port the config names still wins.
import { randomInt } from "node:crypto";
import { OperationError } from "./errors.mjs";
import { paths } from "./files.mjs";
import { interfaceExists } from "./interface.mjs";
import { parseWgDump } from "./system.mjs";

/** Where a picked port comes from: above the registered ports most services use, below the kernel's ephemeral range. */
export const PICK_RANGE = { low: 40000, high: 59999 };
const PICK_TRIES = 50;

/** The ListenPort of a wg-quick text's [Interface] section, or null when it names none. */
export function configuredListenPort(text) {
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) section = header[1].toLowerCase();
    const match = /^ListenPort\s*=\s*(\d+)$/i.exec(line);
    if (section === "interface" && match) return Number(match[1]);
  }
  return null;
}

/** The text with `ListenPort = port` as the first line of its [Interface] section; a text that names one is returned as it is. */
export function withListenPort(text, port) {
  if (port === null || port === undefined || configuredListenPort(text) !== null) return text;
  return text.replace(/^\[Interface\][ \t]*$/im, (header) => `${header}\nListenPort = ${port}`);
}

/**
 * UDP ports bound in the namespace `sys` runs in (/proc/net is the reading process's namespace's). Only a
 * hint for the pick: when it cannot be read, the bind itself says whether the port is free.
 */
export async function boundUdpPorts(sys) {
  const result = await sys.run(["cat", "/proc/net/udp", "/proc/net/udp6"]);
  const ports = new Set();
  for (const line of result.code === 0 ? result.stdout.split("\n") : []) {
    const local = line.trim().split(/\s+/)[1];
    const hex = /^[0-9A-F]+:([0-9A-F]{4})$/i.exec(local ?? "")?.[1];
    if (hex) ports.add(Number.parseInt(hex, 16));
  }
  return ports;
}

/**
 * The port the device keeps, chosen now when it has none: the running interface's (an interface brought up
 * before wgo kept ports, whose port peers may already know), else a random free one in PICK_RANGE.
 * @param {{ sys: import("./system.mjs").System, ifname: string, device: import("./device-state.mjs").Device,
 *   random?: (low: number, high: number) => number }} options
 * @returns {Promise<number>}
 */
export async function keptListenPort({ sys, ifname, device, random = (low, high) => randomInt(low, high + 1) }) {
  if (Number.isInteger(device.listenPort)) return device.listenPort;
  if (await interfaceExists(sys, ifname)) {
    const running = parseWgDump(await sys.check(["wg", "show", ifname, "dump"])).listenPort;
    if (running !== null) return running;
  }
  const taken = await boundUdpPorts(sys);
  for (let i = 0; i < PICK_TRIES; i++) {
    const port = random(PICK_RANGE.low, PICK_RANGE.high);
    if (!taken.has(port)) return port;
  }
  throw new OperationError(`no free UDP port found in ${PICK_RANGE.low}-${PICK_RANGE.high} after ${PICK_TRIES} tries`);
}

/**
 * A kept port another program took since: said plainly, never replaced by another port behind the user's
 * back (peers and NATs know this one).
 */
export function keptPortInUse(error, home, device) {
  if (!(error instanceof OperationError) || error.code !== "port_in_use") return error;
  const port = device.listenPort;
  return new OperationError(
    `UDP port ${port} is already in use on this machine (another WireGuard interface or program holds it). wgo keeps this ` +
      `port for device ${device.name} so that NAT mappings its peers learned stay valid: free it (\`ss -ulpn 'sport = :${port}'\` ` +
      `shows who), or remove "listenPort" from ${paths.device(home, device.name)} to have wgo pick another`,
    { code: "port_in_use" },
  );
}
