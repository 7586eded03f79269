// The server's side of delta sync, as the CLI tests need it: the Worker's own types, delta and wg-quick
// renderer, so what the fake API serves is exactly what the Worker would send.
import { diffConfigs } from "../../../src/core/routing/config-delta.ts";
import { compareBigInt } from "../../../src/core/routing/ordering.ts";
import type { ConfigDelta, NodeConfig, PeerConfig } from "../../../src/core/routing/types.ts";
import { renderWgQuick as serverRender } from "../../../src/core/routing/wg-quick.ts";
import { parseAddress } from "../../../src/core/net/ipam.ts";

export { diffConfigs };
export type { ConfigDelta, NodeConfig, PeerConfig };

/** The Worker's wg-quick text; its family is the interface address's. */
export function serverWgQuick(config: Omit<NodeConfig, "wgQuick">): string {
  return serverRender(config, config.interface.address.includes(":") ? "ipv6" : "ipv4");
}

/** The server's peer order: address as a number, ties by nodeId. */
export function sortPeers(peers: PeerConfig[]): PeerConfig[] {
  const key = (peer: PeerConfig) => parseAddress(peer.address)?.value ?? -1n;
  return [...peers].sort((a, b) => compareBigInt(key(a), key(b)) || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
}

/** A complete config: peers sorted, wgQuick rendered by the server's renderer. */
export function nodeConfig(config: Omit<NodeConfig, "wgQuick">): NodeConfig {
  const sorted = { ...config, peers: sortPeers(config.peers) };
  return { ...sorted, wgQuick: serverWgQuick(sorted) };
}
