import ipaddr from "ipaddr.js";

/**
 * The address a heartbeat came from, as a hint of the device's public address (docs/nat.md), or null when it
 * says nothing: not an address, or one that never crosses a NAT towards the Internet (loopback, unspecified,
 * link-local: a client on the same host as the server, as in development).
 */
export function publicHostOf(source: string | null): string | null {
  if (!source || !ipaddr.isValid(source)) return null;
  const parsed = ipaddr.process(source);
  const range = parsed.range();
  return range === "loopback" || range === "unspecified" || range === "linkLocal" ? null : parsed.toString();
}
