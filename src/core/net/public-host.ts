import ipaddr from "ipaddr.js";
import { hostOf } from "../routing/endpoints";

/** Ranges an address from another machine's report never reaches it at: the peer's own host, or no one host. */
const NOWHERE = new Set(["loopback", "unspecified", "linkLocal", "multicast", "broadcast"]);

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

/**
 * Whether a device's LAN endpoint (a literal, wire/fields.ts) can reach it from another machine on its LAN.
 * A loopback one would point the peers behind its NAT at a service on their own host (127.0.0.1:53, their
 * resolver): its handshakes sent there. wgo never sends these (docs/nat.md); the server does not take them.
 */
export const isLanEndpoint = (endpoint: string) => !NOWHERE.has(ipaddr.process(hostOf(endpoint)).range());
