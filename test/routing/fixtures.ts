import type { RoutingNetwork, RoutingNode, RoutingPolicy } from "../../src/core/routing";

/** Builders for routing scenarios. Keys are valid WireGuard keys derived from the node id. */

export function keyFor(id: string): string {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < id.length; i++) bytes[i % 32] = (bytes[i % 32]! + id.charCodeAt(i) * 31) & 0xff;
  return btoa(String.fromCharCode(...bytes));
}

export function network(cidr: string, overrides: Partial<RoutingNetwork> = {}): RoutingNetwork {
  return { id: "net_test", cidr, routingRevision: 7, dnsServers: [], ...overrides };
}

export function device(id: string, address: string, overrides: Partial<RoutingNode> = {}): RoutingNode {
  return {
    id,
    name: id.replace(/^node_/, ""),
    address,
    publicKey: keyFor(id),
    endpoint: null,
    listenPort: null,
    isGateway: false,
    routing: { mode: "all" },
    ...overrides,
  };
}

export function gateway(id: string, address: string, overrides: Partial<RoutingNode> = {}): RoutingNode {
  return device(id, address, {
    isGateway: true,
    endpoint: `${id.replace(/^node_/, "")}.example.net:51820`,
    listenPort: 51820,
    ...overrides,
  });
}

export function policy(id: string, destinationCidr: string, gatewayPath: string[]): RoutingPolicy {
  return { id, name: `to ${destinationCidr}`, destinationCidr, gatewayPath };
}

/** Deterministic Fisher-Yates with a small LCG, so "shuffled" tests are reproducible. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Peer name -> AllowedIPs of one config, the compact shape most assertions compare against. */
export function allowedByPeer(config: { peers: { nodeId: string; allowedIps: string[] }[] }): [string, string[]][] {
  return config.peers.map((peer) => [peer.nodeId, peer.allowedIps]);
}
