import type { RoutingNode } from "./types";

/**
 * Which endpoint a node's config names for a peer (docs/nat.md). A peer that names its own endpoint (a server,
 * a gateway) is reached there. A viewer that names one is reached first and learns the peer's address by
 * roaming, as WireGuard does, so its config names nothing it would then overwrite. Two nodes that both only
 * dial out are what the learned candidates are for: behind one NAT (same public address) the LAN endpoint,
 * since few home routers hairpin; otherwise the address after NAT a gateway saw; else, as a weak hint, the
 * heartbeats' source address with the peer's own port, which a port-preserving NAT keeps.
 */
export function endpointFor(viewer: RoutingNode, peer: RoutingNode): string | null {
  if (peer.endpoint !== null) return peer.endpoint;
  if (viewer.endpoint !== null) return null;
  const theirs = peer.candidates;
  if (!theirs) return null;
  const ours = viewer.candidates;
  const firstLocal = theirs.local[0];
  if (ours && firstLocal && sameSite(ours, theirs)) return firstLocal;
  if (theirs.observed) return theirs.observed;
  return publicHint(theirs);
}

/** The weak hint: the heartbeats' source address with the node's own (first LAN) port; null without both. */
export function publicHint(candidates: Pick<Candidates, "local" | "publicHost">): string | null {
  const firstLocal = candidates.local[0];
  return candidates.publicHost && firstLocal ? joinHostPort(candidates.publicHost, portOf(firstLocal)) : null;
}

type Candidates = NonNullable<RoutingNode["candidates"]>;

/** Behind the same NAT: the same address after it, as a gateway saw both, or as their heartbeats came from. */
function sameSite(ours: Candidates, theirs: Candidates): boolean {
  const observedHost = (candidates: Candidates) => (candidates.observed ? hostOf(candidates.observed) : null);
  const [a, b] = [observedHost(ours), observedHost(theirs)];
  if (a !== null && a === b) return true;
  return ours.publicHost !== null && ours.publicHost === theirs.publicHost;
}

/** "1.2.3.4:51820" → "1.2.3.4"; "[fd00::1]:51820" → "fd00::1". */
export function hostOf(endpoint: string): string {
  const colon = endpoint.lastIndexOf(":");
  const host = endpoint.slice(0, colon);
  return host.startsWith("[") ? host.slice(1, -1) : host;
}

const portOf = (endpoint: string) => endpoint.slice(endpoint.lastIndexOf(":") + 1);

const joinHostPort = (host: string, port: string | number) => (host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`);
