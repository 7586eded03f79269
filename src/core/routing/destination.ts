import { overlaps, parseCidr } from "../net/cidr";

/**
 * Whether a policy destination can be routed beside the overlay. Returns the reason it cannot, or null.
 *
 * A destination inside (or equal to) the network would compete with the node addresses themselves:
 * the same prefix would be owned by a gateway on some interfaces and by the nodes on others, and
 * WireGuard lets one prefix belong to only one peer. A destination that contains the network
 * (0.0.0.0/0, 10.0.0.0/8 around 10.20.0.0/16) is fine: longest-prefix match keeps every overlay
 * address on its own peer and only the rest goes to the gateway.
 */
export function checkDestination(networkCidr: string, destinationCidr: string): string | null {
  const destination = parseCidr(destinationCidr);
  if (!destination.ok) return `Destination ${destinationCidr} is not a valid CIDR: ${destination.reason}`;
  const network = parseCidr(networkCidr);
  if (!network.ok) return `Network CIDR ${networkCidr} is not a valid CIDR: ${network.reason}`;
  const d = destination.cidr;
  const n = network.cidr;
  if (d.family !== n.family) {
    return `Destination ${d.text} is ${d.family === "ipv4" ? "IPv4" : "IPv6"} but network ${n.text} is ${n.family === "ipv4" ? "IPv4" : "IPv6"}`;
  }
  // Overlapping and at least as long means inside: a prefix contains every longer prefix it overlaps.
  if (d.prefix >= n.prefix && overlaps(d, n)) {
    return d.prefix === n.prefix
      ? `Destination ${d.text} is the network itself; overlay addresses are routed without a policy`
      : `Destination ${d.text} lies inside network ${n.text}; overlay addresses are routed without a policy`;
  }
  return null;
}
