// Names on a machine that may be in several networks (issue 47; tailscale #183, netbird #5194, headscale #119).
// Each network is a device of its own in this home: its key, credential, state files (devices/NAME.*), interface
// and systemd unit. NAME is local and unique per home; the node keeps this host's name in every network, so a
// second network's device is named `<host>-<network>` here and `<host>` there (`nodeName` in its file).
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { listDevices, loadDevice } from "./device-state.mjs";

/** Any text as a DNS label (lower case, a-z 0-9 and inner hyphens, at most 63), or "" when nothing is left. */
export function toLabel(text) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
}

/** This host's name as a device name (its first label), as `tailscale up` names a machine; "" when it makes none. */
export const hostLabel = () => toLabel(hostname().split(".")[0] ?? "");

/** The local name for this host's device in `network` when `<host>` is taken by a device of another network. */
export const secondName = (host, network) => toLabel(`${host}-${network}`);

/**
 * The interface a newly enrolled device gets: the lowest wgN that no device of this home runs on (or will), and
 * that no userspace WireGuard of this machine serves (its socket is in `runDir` whatever its namespace). Two
 * networks on one machine then get wg0 and wg1, never the same interface; `--interface` still decides.
 */
export function freeInterface(home, runDir = "/run/wireguard") {
  const taken = new Set(listDevices(home).map((name) => loadDevice(home, name).interface));
  for (let index = 0; ; index += 1) {
    const ifname = `wg${index}`;
    if (!taken.has(ifname) && !existsSync(join(runDir, `${ifname}.sock`))) return ifname;
  }
}
