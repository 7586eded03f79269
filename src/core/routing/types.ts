import type { InboundRule } from "../access-policy/compile";
import type { ForwardRule } from "../access-policy/forward";
import type { InboundRulePatch } from "./filter-patch";
/**
 * The routing core's inputs and outputs. Inputs are plain records (what the database rows map to);
 * outputs are the JSON the node-config endpoint serves. Nothing here knows about D1 or HTTP.
 */

/** Which policies apply when this node is a source. Gateways ignore it: they are never sources. */
export type RoutingSelection = { mode: "all" } | { mode: "none" } | { mode: "only"; policyIds: string[] };

export interface RoutingNode {
  id: string;
  name: string;
  /** Canonical address inside the network CIDR, without a prefix length. */
  address: string;
  /** null while a gateway node awaits its agent's key: no other node lists it as a peer then. */
  publicKey: string | null;
  /** "host:port" where peers can reach this node, or null when it only dials out. */
  endpoint: string | null;
  listenPort: number | null;
  isGateway: boolean;
  routing: RoutingSelection;
  /** A gateway that relays pairs of nodes with no direct path between them (docs/nat.md). */
  relay?: boolean;
  /** Where the node may be reached though it names no endpoint: what the server learned (docs/nat.md). */
  candidates?: EndpointCandidates;
}

/** A node's learned endpoints (routing/endpoints.ts chooses among them per pair). */
export interface EndpointCandidates {
  /** Its LAN endpoints ("192.168.1.10:51820"), from its own heartbeats. */
  local: string[];
  /** The address its heartbeats came from: its NAT's public address, as a hint. */
  publicHost: string | null;
  /** Its endpoint after NAT, as a gateway with a public endpoint last saw it. */
  observed: string | null;
}

/** Two nodes the server moved onto a relay because they found no direct path (docs/nat.md). */
export interface RelayedPair {
  a: string;
  b: string;
  relayId: string;
}

export interface RoutingPolicy {
  id: string;
  name: string;
  /** Canonical CIDR outside the network (see checkDestination). */
  destinationCidr: string;
  /** Gateway node ids in forwarding order; the last one is the egress. */
  gatewayPath: string[];
  /**
   * Per hop of gatewayPath, the pool members standing by beside the one on the path (empty for a plain hop;
   * absent: no pools). They keep tunnels with the hops beside theirs (routing/standby-links.ts).
   */
  standbys?: string[][];
}

export interface RoutingNetwork {
  id: string;
  cidr: string;
  routingRevision: number;
  /** Overlay addresses of the nodes that serve the network's zone (configs' `interface.dns`). */
  dnsServers: string[];
  /** The network's zone: the search domain configs name beside their DNS servers. */
  dnsDomain?: string;
  /** Pairs carried through a relay instead of directly (absent: none). */
  relayedPairs?: RelayedPair[];
}

export type HopRole = "source" | "transit" | "egress";

export interface RoutingIntentEntry {
  policyId: string;
  name: string;
  destinationCidr: string;
  path: string[];
  role: HopRole;
  /** The gateway before this node on the path; null for a source or for the first hop (its predecessors are the sources). */
  previousHop: string | null;
  /** Where this node sends traffic for destinationCidr; null on the egress, which uses its own underlay. */
  nextHop: string | null;
}

export interface PeerConfig {
  nodeId: string;
  name: string;
  /** The peer's overlay address: peers are listed in its numeric order (then by id), which a delta's receiver re-creates. */
  address: string;
  publicKey: string;
  endpoint: string | null;
  allowedIps: string[];
  persistentKeepalive: number | null;
}

export interface NodeConfig {
  nodeId: string;
  networkId: string;
  routingRevision: number;
  /** dnsSearch: the network's domain when dns names servers, else empty (wg-quick: `DNS = servers, domain`). */
  interface: { address: string; listenPort: number | null; dns: string[]; dnsSearch: string[] };
  peers: PeerConfig[];
  routingIntent: RoutingIntentEntry[];
  /** True for gateways on any path, pool members standing by and relays: they forward packets between peers and must have IP forwarding on. */
  forwarding: boolean;
  /** Policy mode only (docs/access.md): what may reach the node over the overlay, its inbound filter. */
  accessRules?: InboundRule[];
  /** Policy mode, gateways only: the forward filter of the routed destinations on its paths. */
  forwardRules?: ForwardRule[];
  wgQuick: string;
}

/** A config before its wg-quick text is rendered: what deltas are computed between. */
export type NodeConfigCore = Omit<NodeConfig, "wgQuick">;

/**
 * What changed in one node's config between the revision a client holds and the current one. Peers are
 * named by node id; a peer whose key changed comes as an upsert (the client removes the old key).
 * The optional parts are present only when they changed, and then whole.
 */
export interface ConfigDelta {
  nodeId: string;
  networkId: string;
  fromRevision: number;
  routingRevision: number;
  interface?: NodeConfig["interface"];
  peersUpserted: PeerConfig[];
  peersRemoved: string[];
  routingIntent?: RoutingIntentEntry[];
  forwarding?: boolean;
  /** Present when changed; null when the network left policy mode (the node drops its filter). */
  accessRules?: InboundRule[] | null;
  /** Instead of accessRules when shorter: the filter's change entry by entry (routing/filter-patch.ts). */
  accessRulesPatch?: InboundRulePatch[];
  forwardRules?: ForwardRule[] | null;
}
