// Delta sync on the running interface: the peers a delta touches are changed one by one with `wg set`,
// so every other peer keeps its session and nothing is re-read. What `wg set` cannot express (interface
// settings, an endpoint that went away) is left to the full path, `wg syncconf`.
import { syncRoutes } from "./routes.mjs";
import { planWgQuick } from "./wg-quick-text.mjs";

/** Past this many peer commands one `wg syncconf` is cheaper than spawning `wg` for each. */
export const MAX_PEER_COMMANDS = 100;

/**
 * The `wg set` argv lists that turn an interface running `held` into one running `held` + `delta`, or
 * the reason they cannot. Removals come first, so a public key that moved to another node is free again.
 * @param {import("./config-delta.mjs").NodeConfig} held
 * @param {import("./config-delta.mjs").ConfigDelta} delta
 * @returns {{ commands: string[][] } | { reason: string }}
 */
export function peerCommands(ifname, held, delta) {
  if (delta.interface) return { reason: "the interface settings changed" };
  const before = new Map(held.peers.map((peer) => [peer.nodeId, peer]));
  const removals = [];
  for (const nodeId of delta.peersRemoved) {
    const old = before.get(nodeId);
    if (old) removals.push(old.publicKey);
  }
  const sets = [];
  for (const peer of delta.peersUpserted) {
    const old = before.get(peer.nodeId);
    if (old && old.publicKey !== peer.publicKey)
      removals.push(old.publicKey); // the new key is a new WireGuard peer
    else if (old?.endpoint != null && peer.endpoint === null) {
      return { reason: `peer ${peer.nodeId} no longer has an endpoint, which wg set cannot unset` };
    }
    sets.push([
      "wg",
      "set",
      ifname,
      "peer",
      peer.publicKey,
      // `allowed-ips` replaces the peer's whole list (and takes a prefix away from any other peer).
      "allowed-ips",
      peer.allowedIps.join(","),
      ...(peer.endpoint === null ? [] : ["endpoint", peer.endpoint]),
      "persistent-keepalive",
      peer.persistentKeepalive === null ? "off" : String(peer.persistentKeepalive),
    ]);
  }
  const count = removals.length + sets.length;
  if (count > MAX_PEER_COMMANDS) return { reason: `${count} peer changes are applied faster by one wg syncconf` };
  return { commands: [...removals.map((key) => ["wg", "set", ifname, "peer", key, "remove"]), ...sets] };
}

/**
 * Runs the peer commands, then brings routes (and the forwarding sysctl, when it was just turned on)
 * in line with `text`, the complete new wg-quick file with the private key filled in.
 * @param {{ sys: import("./system.mjs").System, ifname: string, commands: string[][], text: string,
 *   forwardingTurnedOn: boolean }} options
 * @returns {Promise<string[]>} the routes the interface ends up with
 */
export async function applyPeerCommands({ sys, ifname, commands, text, forwardingTurnedOn }) {
  for (const argv of commands) await sys.check(argv);
  const plan = planWgQuick(text);
  const routes = await syncRoutes(sys, ifname, plan.allowedIps, plan.table);
  if (forwardingTurnedOn) for (const setting of plan.sysctls) await sys.check(["sysctl", "-q", "-w", setting]);
  return routes;
}
