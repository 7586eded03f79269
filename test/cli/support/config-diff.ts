// The server's side of delta sync, as the tests need it: NodeConfig with peer addresses, the delta
// between two of them (diff by nodeId, the way the server computes it), and the server's own wg-quick
// renderer, so what the fake API serves is exactly the text the Worker would write.
import { renderWgQuick as serverRender } from "../../../src/services/networks/routing/wg-quick.ts";

export interface PeerConfig {
  nodeId: string;
  name: string;
  address: string;
  publicKey: string;
  endpoint: string | null;
  allowedIps: string[];
  persistentKeepalive: number | null;
}

export interface InterfaceConfig {
  address: string;
  listenPort: number | null;
  dns: string[];
}

export interface NodeConfig {
  nodeId: string;
  networkId: string;
  routingRevision: number;
  interface: InterfaceConfig;
  peers: PeerConfig[];
  routingIntent: unknown[];
  forwarding: boolean;
  wgQuick: string;
}

export interface ConfigDelta {
  nodeId: string;
  networkId: string;
  fromRevision: number;
  routingRevision: number;
  interface?: InterfaceConfig;
  peersUpserted: PeerConfig[];
  peersRemoved: string[];
  routingIntent?: unknown[];
  forwarding?: boolean;
}

/** The Worker's wg-quick text; its family is the interface address's. */
export function serverWgQuick(config: Omit<NodeConfig, "wgQuick">): string {
  return serverRender(config as never, config.interface.address.includes(":") ? "ipv6" : "ipv4");
}

const addressValue = (address: string): bigint => {
  if (!address.includes(":")) return address.split(".").reduce((n, part) => (n << 8n) | BigInt(part), 0n);
  const [head = "", tail] = address.split("::");
  const groups = (text: string | undefined) => (text ? text.split(":") : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const all = [...groups(head), ...(tail === undefined ? [] : Array(missing).fill("0")), ...groups(tail)];
  return all.reduce((n, group) => (n << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
};

/** The server's peer order: address as a number, ties by nodeId. */
export function sortPeers(peers: PeerConfig[]): PeerConfig[] {
  return [...peers].sort((a, b) => {
    const x = addressValue(a.address);
    const y = addressValue(b.address);
    return x < y ? -1 : x > y ? 1 : a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0;
  });
}

/** A complete config: peers sorted, wgQuick rendered by the server's renderer. */
export function nodeConfig(config: Omit<NodeConfig, "wgQuick">): NodeConfig {
  const sorted = { ...config, peers: sortPeers(config.peers) };
  return { ...sorted, wgQuick: serverWgQuick(sorted) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What the server answers to `{ sinceRevision: from.routingRevision }` when it holds `to`. */
export function diffConfigs(from: NodeConfig, to: NodeConfig): ConfigDelta {
  const before = new Map(from.peers.map((peer) => [peer.nodeId, peer]));
  const after = new Set(to.peers.map((peer) => peer.nodeId));
  return {
    nodeId: to.nodeId,
    networkId: to.networkId,
    fromRevision: from.routingRevision,
    routingRevision: to.routingRevision,
    ...(same(from.interface, to.interface) ? {} : { interface: to.interface }),
    peersUpserted: to.peers.filter((peer) => !same(before.get(peer.nodeId), peer)),
    peersRemoved: from.peers.filter((peer) => !after.has(peer.nodeId)).map((peer) => peer.nodeId),
    ...(same(from.routingIntent, to.routingIntent) ? {} : { routingIntent: to.routingIntent }),
    ...(from.forwarding === to.forwarding ? {} : { forwarding: to.forwarding }),
  };
}
