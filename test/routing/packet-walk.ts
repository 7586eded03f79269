import { parseCidr } from "../../src/core/net/cidr";
import { bytesToBigInt, parseAddress } from "../../src/core/net/ipam";
import type { NodeConfig } from "../../src/core/routing";

/**
 * A model of the data plane the configs will run on: each hop picks the outgoing peer by longest
 * prefix match over its AllowedIPs, and the receiving interface accepts the packet only when the
 * longest match for the packet's source is the peer it came from (WireGuard's cryptokey routing).
 * Anything a hop's interface has no prefix for leaves through that node's underlay.
 */

interface Prefix {
  value: bigint;
  prefix: number;
  bits: number;
}

function parsePrefix(text: string): Prefix {
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(`bad prefix ${text}`);
  return { value: bytesToBigInt(parsed.cidr.bytes), prefix: parsed.cidr.prefix, bits: parsed.cidr.family === "ipv4" ? 32 : 128 };
}

function contains(prefix: Prefix, address: bigint): boolean {
  const shift = BigInt(prefix.bits - prefix.prefix);
  return address >> shift === prefix.value >> shift;
}

/**
 * The peer a packet to `address` leaves through, or null for the underlay. Besides its WireGuard
 * routes, an egress has the route to its destination that docs/routing.md asks operators to provide
 * (at least as specific as the destination); longest prefix decides between the two, as in the kernel.
 */
export function lookup(config: NodeConfig, address: string): string | null {
  const target = parseAddress(address)!.value;
  const candidates = config.peers.flatMap((peer) => peer.allowedIps.map((text) => ({ nodeId: peer.nodeId as string | null, text })));
  for (const entry of config.routingIntent) if (entry.role === "egress") candidates.push({ nodeId: null, text: entry.destinationCidr });
  let best: { nodeId: string | null; prefix: number } | null = null;
  for (const { nodeId, text } of candidates) {
    const prefix = parsePrefix(text);
    if (contains(prefix, target) && (!best || prefix.prefix > best.prefix)) best = { nodeId, prefix: prefix.prefix };
  }
  return best?.nodeId ?? null;
}

/** The peer WireGuard attributes a packet's source to: cryptokey routing over AllowedIPs only. */
function sourcePeer(config: NodeConfig, address: string): string | null {
  const target = parseAddress(address)!.value;
  let best: { nodeId: string; prefix: number } | null = null;
  for (const peer of config.peers) {
    for (const text of peer.allowedIps) {
      const prefix = parsePrefix(text);
      if (contains(prefix, target) && (!best || prefix.prefix > best.prefix)) best = { nodeId: peer.nodeId, prefix: prefix.prefix };
    }
  }
  return best?.nodeId ?? null;
}

export type Walk = { hops: string[]; end: "delivered" | "underlay" } | { hops: string[]; end: "dropped"; why: string };

/**
 * Follows a packet from node `start` (already routed into its interface by the kernel, or originated
 * there) until it reaches the node owning `destination`, leaves through an underlay, or is dropped.
 */
export function walk(configs: Map<string, NodeConfig>, start: string, source: string, destination: string): Walk {
  const owner = new Map([...configs.values()].map((config) => [config.interface.address.split("/")[0]!, config.nodeId]));
  const hops = [start];
  let here = start;
  for (let step = 0; step < 16; step++) {
    if (owner.get(destination) === here) return { hops, end: "delivered" };
    if (step > 0 && !configs.get(here)!.forwarding) return { hops, end: "dropped", why: `${here} does not forward` };
    const next = lookup(configs.get(here)!, destination);
    if (next === null) return { hops, end: "underlay" };
    const receiver = configs.get(next);
    if (!receiver) return { hops, end: "dropped", why: `${next} has no config` };
    if (sourcePeer(receiver, source) !== here)
      return { hops: [...hops, next], end: "dropped", why: `${next} rejects source ${source} from ${here}` };
    hops.push(next);
    here = next;
  }
  return { hops, end: "dropped", why: "loop" };
}

/** Every prefix that appears on more than one peer (or twice on one) of the same interface. */
export function duplicatePrefixes(config: NodeConfig): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const peer of config.peers) {
    for (const text of peer.allowedIps) {
      const prefix = parsePrefix(text);
      const key = `${prefix.value}/${prefix.prefix}`;
      if (seen.has(key)) duplicates.push(`${config.nodeId}: ${text}`);
      seen.add(key);
    }
  }
  return duplicates;
}
