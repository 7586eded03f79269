import type { Family } from "../net/cidr";
import type { NodeConfig } from "./types";

/** The server never holds private keys; the client replaces this line with its own before use. */
export const PRIVATE_KEY_PLACEHOLDER = "REPLACE_WITH_PRIVATE_KEY";

/**
 * The wg-quick(8) file for a node config. Deterministic: the same config always renders to the same
 * bytes, so clients can compare texts to know whether anything changed.
 */
export function renderWgQuick(config: Omit<NodeConfig, "wgQuick">, family: Family): string {
  const lines = [
    `# wg-overlay: network ${oneLine(config.networkId)}, node ${oneLine(config.nodeId)}, routing revision ${config.routingRevision}`,
    "[Interface]",
    `PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`,
    `Address = ${oneLine(config.interface.address)}`,
  ];
  if (config.interface.listenPort !== null) lines.push(`ListenPort = ${config.interface.listenPort}`);
  if (config.interface.dns.length > 0) {
    // wg-quick's own syntax: servers, then search domains, on one line.
    lines.push(`DNS = ${[...config.interface.dns, ...config.interface.dnsSearch].map(oneLine).join(", ")}`);
  }
  if (config.forwarding) {
    const sysctl = family === "ipv4" ? "net.ipv4.ip_forward=1" : "net.ipv6.conf.all.forwarding=1";
    lines.push(`PostUp = sysctl -q -w ${sysctl}`);
  }
  for (const peer of config.peers) {
    lines.push("", "[Peer]", `# ${oneLine(peer.name)} (${oneLine(peer.nodeId)})`, `PublicKey = ${oneLine(peer.publicKey)}`);
    if (peer.endpoint !== null) lines.push(`Endpoint = ${oneLine(peer.endpoint)}`);
    // A relayed pair's direct entry has none (docs/nat.md), and wg refuses an empty AllowedIPs line.
    if (peer.allowedIps.length > 0) lines.push(`AllowedIPs = ${peer.allowedIps.map(oneLine).join(", ")}`);
    if (peer.persistentKeepalive !== null) lines.push(`PersistentKeepalive = ${peer.persistentKeepalive}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Names are free text and other fields come from clients. A line break inside a value would let it
 * add its own lines to the file (a PostUp runs as root), so control characters become spaces.
 */
function oneLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this strips
  return value.replace(/[\u0000-\u001f\u007f]/g, " ");
}
