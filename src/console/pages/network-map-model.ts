import type { Schema } from "../../../client/index.ts";
import { matches } from "../list-search";
import { chainOf } from "./chain-model";
import { type Health, isUp, memberHealth, nodeHealth } from "./network-map-health";

// What the network map draws, computed from the API's answers and bounded whatever the network's size: a
// page at 10,000 nodes holds group tiles and at most OPEN_LIMIT node tiles, never a shape per node.

/** Up to this many devices each get a tile; above it they are drawn as groups by tag. */
export const TILE_LIMIT = 200;
/** Tag groups drawn (the largest); the rest are one "other tags" tile. */
export const GROUP_LIMIT = 40;
/** Node tiles drawn for an opened group (matches first). */
export const OPEN_LIMIT = 200;
/** Chains (distinct gateway paths), gateways outside them, relayed pairs and search matches drawn or listed. */
export const CHAIN_LIMIT = 50;
export const GATEWAY_LIMIT = 60;
export const PAIR_LIMIT = 50;
export const MATCH_LIMIT = 50;

export const UNTAGGED = "untagged";

type Node = Schema<"Node">;
export interface MapNode {
  id: string;
  name: string;
  health: Health;
  match: boolean;
}
export interface MapGateway extends MapNode {
  relay: boolean;
}
export interface MapHop {
  title: string;
  pool: boolean;
  members: (MapGateway & { active: boolean })[];
}
/** Policies that share one gateway path are one chain: the same hops, several destinations. */
export interface MapChain {
  key: string;
  policies: { id: string; name: string; destination: string }[];
  hops: MapHop[];
}
export interface MapGroup {
  key: string;
  count: number;
  online: number;
  matches: number;
}
export interface MapInput {
  nodes: Node[];
  policies: { policy: Schema<"RoutingPolicy">; status?: Schema<"RoutingPolicyStatus"> }[];
  pools: Schema<"GatewayPool">[];
  status?: Schema<"RuntimeStatus">;
  /** null: the API refused them (a viewer or member: they name every member's devices). */
  pairs: Schema<"RelayedPair">[] | null;
  /** Search words, lower case. */
  q?: string;
  open?: string;
  now: number;
  offlineAfterMs: number;
}
export interface NetworkMap {
  chains: MapChain[];
  moreChains: number;
  gateways: MapGateway[];
  moreGateways: number;
  devices:
    | { mode: "tiles"; tiles: MapNode[] }
    | { mode: "groups"; groups: MapGroup[]; other: { groups: number; nodes: number } | null; open: OpenGroup | null };
  pairs: { list: Schema<"RelayedPair">[]; total: number } | null;
  matches: { list: (MapNode & { where: string })[]; total: number } | null;
  counts: { devices: number; online: number; gateways: number; gatewayWords: Map<string, number>; deviceWords: Map<string, number> };
  /** Grouped: the group tile a relayed pair's device is drawn at when its own tile is not (its first tag). */
  pairGroups: Map<string, string>;
}
export interface OpenGroup {
  key: string;
  tiles: MapNode[];
  more: number;
}

/** How many say each word ("unhealthy: stale report" counts as "unhealthy"), the most first. */
function tally(healths: Health[]) {
  const words = new Map<string, number>();
  for (const health of healths) {
    const word = health.word.split(":")[0] ?? "";
    words.set(word, (words.get(word) ?? 0) + 1);
  }
  return new Map([...words].sort((a, b) => b[1] - a[1]));
}

const NO_TAGS = { tags: [] as string[] };
const groupsOf = (node: Pick<Node, "tags">) => (node.tags.length > 0 ? node.tags : [UNTAGGED]);

export function buildMap(input: MapInput): NetworkMap {
  const { q } = input;
  const byId = new Map(input.nodes.map((node) => [node.id, node]));
  const poolNames = new Map(input.pools.map((pool) => [pool.id, pool.name]));
  const found = (node: Node) => (q ? matches(q, node.name, node.address, ...node.tags) : false);
  const health = (node: Node) => nodeHealth(node, input.status, input.now, input.offlineAfterMs);
  const gateway = (id: string, words?: Health): MapGateway => {
    const node = byId.get(id);
    if (!node) return { id, name: id, health: words ?? { word: "unknown", tone: "muted" }, match: false, relay: false };
    return { id, name: node.name, health: words ?? health(node), match: found(node), relay: node.relay };
  };

  // Chains: each policy's hops with their members' health from its status (chain-model.ts names nothing here:
  // an empty name map leaves the ids, which this model resolves itself).
  const chains = new Map<string, MapChain>();
  const inChains = new Map<string, Health>();
  for (const { policy, status } of input.policies) {
    const key = policy.gatewayPath.join(">");
    const entry = { id: policy.id, name: policy.name, destination: policy.destinationCidr };
    const known = chains.get(key);
    if (known) {
      known.policies.push(entry);
      continue;
    }
    const boxes = chainOf(policy, status, new Map()).filter((box) => box.kind === "hop");
    const hops = boxes.map((box, index): MapHop => {
      const hopId = policy.gatewayPath[index] ?? "";
      const pool = poolNames.has(hopId);
      const members = box.members.map((member) => {
        const words = memberHealth(member);
        inChains.set(member.name, words);
        return { ...gateway(member.name, words), active: member.active };
      });
      // Without the policy's status a plain hop is still its node, with the node's own health.
      if (members.length === 0 && byId.has(hopId)) {
        const node = byId.get(hopId)!;
        inChains.set(hopId, health(node));
        members.push({ ...gateway(hopId), active: true });
      }
      return { title: pool ? `pool ${poolNames.get(hopId)}` : (byId.get(hopId)?.name ?? hopId), pool, members };
    });
    chains.set(key, { key, policies: [entry], hops });
  }

  const gatewayNodes = input.nodes.filter((node) => node.roles.includes("gateway"));
  const outside = gatewayNodes.filter((node) => !inChains.has(node.id)).map((node) => gateway(node.id));
  const gatewayWords = tally(gatewayNodes.map((node) => inChains.get(node.id) ?? health(node)));

  const devices = input.nodes.filter((node) => !node.roles.includes("gateway"));
  const tile = (node: Node): MapNode => ({ id: node.id, name: node.name, health: health(node), match: found(node) });
  const tiles = devices.map(tile);
  const online = tiles.filter((entry) => isUp(entry.health)).length;
  const deviceWords = tally(tiles.map((entry) => entry.health));

  const matched = input.nodes.filter(found);
  const where = (node: Node) => (node.roles.includes("gateway") ? "gateway" : groupsOf(node).join(", "));
  return {
    chains: [...chains.values()].slice(0, CHAIN_LIMIT),
    moreChains: Math.max(0, chains.size - CHAIN_LIMIT),
    gateways: outside.slice(0, GATEWAY_LIMIT),
    moreGateways: Math.max(0, outside.length - GATEWAY_LIMIT),
    devices: devices.length <= TILE_LIMIT ? { mode: "tiles", tiles } : grouped(devices, tiles, input.open),
    pairs: input.pairs && { list: input.pairs.slice(0, PAIR_LIMIT), total: input.pairs.length },
    matches: q
      ? { list: matched.slice(0, MATCH_LIMIT).map((node) => ({ ...tile(node), where: where(node) })), total: matched.length }
      : null,
    counts: { devices: devices.length, online, gateways: gatewayNodes.length, gatewayWords, deviceWords },
    pairGroups: new Map(
      (input.pairs ?? [])
        .flatMap((pair) => [pair.a.nodeId, pair.b.nodeId])
        .map((id) => [id, groupsOf(byId.get(id) ?? NO_TAGS)[0] ?? UNTAGGED]),
    ),
  };
}

/** Devices as tag groups (a node with several tags counts in each), the largest first; one group opened. */
function grouped(devices: Node[], tiles: MapNode[], open: string | undefined): NetworkMap["devices"] {
  const groups = new Map<string, MapGroup & { members: MapNode[] }>();
  devices.forEach((node, index) => {
    const entry = tiles[index]!;
    for (const key of groupsOf(node)) {
      const group = groups.get(key) ?? { key, count: 0, online: 0, matches: 0, members: [] };
      group.count++;
      if (isUp(entry.health)) group.online++;
      if (entry.match) group.matches++;
      group.members.push(entry);
      groups.set(key, group);
    }
  });
  const sorted = [...groups.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  // The group asked for, else the one holding the most search matches.
  const opened =
    groups.get(open ?? "") ?? [...sorted].sort((a, b) => b.matches - a.matches).find((group) => group.matches > 0) ?? undefined;
  const drawn = sorted.slice(0, GROUP_LIMIT);
  if (opened && !drawn.includes(opened)) drawn[drawn.length - 1] = opened;
  const rest = sorted.filter((group) => !drawn.includes(group));
  const strip = ({ members: _members, ...group }: MapGroup & { members: MapNode[] }): MapGroup => group;
  const members = opened ? [...opened.members.filter((entry) => entry.match), ...opened.members.filter((entry) => !entry.match)] : [];
  return {
    mode: "groups",
    groups: drawn.map(strip),
    other: rest.length > 0 ? { groups: rest.length, nodes: rest.reduce((sum, group) => sum + group.count, 0) } : null,
    open: opened ? { key: opened.key, tiles: members.slice(0, OPEN_LIMIT), more: Math.max(0, members.length - OPEN_LIMIT) } : null,
  };
}
