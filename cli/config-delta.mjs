// Delta sync, the pure part: a ConfigDelta (what changed since the revision the device holds) applied
// to the held NodeConfig gives the config the server would serve at the new revision, wg-quick text
// included, byte for byte. So this file renders that text the way the server does
// (src/core/routing/wg-quick.ts; cli/ shares no code with the Worker, hence the copy).
import { parsePrefix } from "./cidr.mjs";
import { OperationError } from "./errors.mjs";
import { applyInboundPatch } from "./filter-patch.mjs";
import { PRIVATE_KEY_PLACEHOLDER } from "./wg-quick-text.mjs";

/**
 * @typedef {{ nodeId: string, name: string, address: string, publicKey: string, endpoint: string | null,
 *   allowedIps: string[], persistentKeepalive: number | null }} PeerConfig
 * @typedef {{ address: string, listenPort: number | null, dns: string[], dnsSearch?: string[] }} InterfaceConfig
 * @typedef {{ nodeId: string, networkId: string, routingRevision: number, interface: InterfaceConfig,
 *   peers: PeerConfig[], routingIntent: RoutingIntentEntry[], forwarding: boolean, wgQuick: string,
 *   accessRules?: import("./filter-patch.mjs").InboundRule[], forwardRules?: import("./access-filter.mjs").ForwardRule[] }} NodeConfig
 * @typedef {{ role: string, destinationCidr: string }} RoutingIntentEntry the fields wgo reads of one
 * @typedef {{ nodeId: string, networkId: string, fromRevision: number, routingRevision: number,
 *   interface?: InterfaceConfig, peersUpserted: PeerConfig[], peersRemoved: string[],
 *   routingIntent?: RoutingIntentEntry[], forwarding?: boolean, accessRules?: import("./filter-patch.mjs").InboundRule[] | null,
 *   forwardRules?: import("./access-filter.mjs").ForwardRule[] | null,
 *   accessRulesPatch?: import("./filter-patch.mjs").InboundRulePatch[] }} ConfigDelta
 */

/** The server's wg-quick text for a config (its `wgQuick` field, if any, is ignored). */
export function renderWgQuick(config) {
  const lines = [
    `# wg-overlay: network ${oneLine(config.networkId)}, node ${oneLine(config.nodeId)}, routing revision ${config.routingRevision}`,
    "[Interface]",
    `PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`,
    `Address = ${oneLine(config.interface.address)}`,
  ];
  if (config.interface.listenPort !== null) lines.push(`ListenPort = ${config.interface.listenPort}`);
  if (config.interface.dns.length > 0) {
    // wg-quick's own syntax: servers, then search domains, on one line (a server older than dnsSearch sends none).
    lines.push(`DNS = ${[...config.interface.dns, ...(config.interface.dnsSearch ?? [])].map(oneLine).join(", ")}`);
  }
  if (config.forwarding) {
    // The server takes the network's family; the interface address is inside the network.
    const ipv4 = parsePrefix(config.interface.address).family === 4;
    lines.push(`PostUp = sysctl -q -w ${ipv4 ? "net.ipv4.ip_forward=1" : "net.ipv6.conf.all.forwarding=1"}`);
  }
  for (const peer of config.peers) {
    lines.push("", "[Peer]", `# ${oneLine(peer.name)} (${oneLine(peer.nodeId)})`, `PublicKey = ${oneLine(peer.publicKey)}`);
    if (peer.endpoint !== null) lines.push(`Endpoint = ${oneLine(peer.endpoint)}`);
    // As the server renders it: a relayed pair's direct entry has none, and wg refuses an empty line.
    if (peer.allowedIps.length > 0) lines.push(`AllowedIPs = ${peer.allowedIps.map(oneLine).join(", ")}`);
    if (peer.persistentKeepalive !== null) lines.push(`PersistentKeepalive = ${peer.persistentKeepalive}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Control characters become spaces, as on the server: a line break in a name must not add lines. */
function oneLine(value) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this strips
  return value.replace(/[\u0000-\u001f\u007f]/g, " ");
}

/** The server's peer order: overlay address as a number (10.0.0.9 before 10.0.0.10), ties by nodeId. */
export function sortPeers(peers) {
  const keyed = peers.map((peer) => ({ peer, value: addressValue(peer) }));
  keyed.sort((a, b) =>
    a.value < b.value ? -1 : a.value > b.value ? 1 : a.peer.nodeId < b.peer.nodeId ? -1 : a.peer.nodeId > b.peer.nodeId ? 1 : 0,
  );
  return keyed.map(({ peer }) => peer);
}

function addressValue(peer) {
  try {
    return parsePrefix(peer.address).value;
  } catch {
    throw new OperationError(`peer ${peer.nodeId} has no usable overlay address (${JSON.stringify(peer.address)})`);
  }
}

/**
 * The held config when a delta can be built on it: every peer carries its address (configs from a
 * server without delta sync do not) and this renderer reproduces the server's text exactly. If it did
 * not, a delta applied here would give a file the server never wrote, so wgo asks for the full config.
 * @returns {NodeConfig | null}
 */
export function deltaBase(held) {
  if (!held || !Array.isArray(held.peers) || !held.peers.every((peer) => typeof peer?.address === "string")) return null;
  try {
    return renderWgQuick(held) === held.wgQuick ? held : null;
  } catch {
    return null;
  }
}

/**
 * @param {"accessRules" | "forwardRules"} key
 * @param {NodeConfig} held
 * @param {ConfigDelta} delta
 */
function filterAfter(key, held, delta) {
  const value = delta[key] === undefined ? held[key] : delta[key];
  return value === null || value === undefined ? {} : { [key]: value };
}

/**
 * @param {NodeConfig | null} held the config the device holds
 * @param {ConfigDelta} delta the server's answer to `{ sinceRevision: held.routingRevision }`
 * @returns {NodeConfig} the config at delta.routingRevision, wgQuick rendered
 */
export function applyConfigDelta(held, delta) {
  if (!held) throw new OperationError("the server sent a delta, but no config is held to apply it to");
  if (delta.nodeId !== held.nodeId || delta.networkId !== held.networkId) {
    throw new OperationError(`the delta is for node ${delta.nodeId} in ${delta.networkId}, not ${held.nodeId} in ${held.networkId}`);
  }
  if (delta.fromRevision !== held.routingRevision) {
    throw new OperationError(`the delta starts at revision ${delta.fromRevision}, but the held config is revision ${held.routingRevision}`);
  }
  if (!Number.isInteger(delta.routingRevision) || !Array.isArray(delta.peersUpserted) || !Array.isArray(delta.peersRemoved)) {
    throw new OperationError("the delta lacks routingRevision, peersUpserted or peersRemoved");
  }
  const upserted = new Set(delta.peersUpserted.map((peer) => peer.nodeId));
  if (upserted.size !== delta.peersUpserted.length) throw new OperationError("the delta upserts a peer twice");
  const replaced = new Set([...delta.peersRemoved, ...upserted]);
  const config = {
    nodeId: held.nodeId,
    networkId: held.networkId,
    routingRevision: delta.routingRevision,
    interface: delta.interface ?? held.interface,
    peers: sortPeers([...held.peers.filter((peer) => !replaced.has(peer.nodeId)), ...delta.peersUpserted]),
    routingIntent: delta.routingIntent ?? held.routingIntent,
    forwarding: delta.forwarding ?? held.forwarding,
    // Access filters (policy mode): absent from the delta, unchanged; null, the network went back to open.
    ...(delta.accessRulesPatch
      ? { accessRules: applyInboundPatch(held.accessRules, delta.accessRulesPatch) }
      : filterAfter("accessRules", held, delta)),
    ...filterAfter("forwardRules", held, delta),
  };
  return { ...config, wgQuick: renderWgQuick(config) };
}
