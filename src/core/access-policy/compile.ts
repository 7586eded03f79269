import type { Cidr } from "../net/cidr";
import { ALL_TRAFFIC, formatPorts, isNoTraffic, joinPorts, NO_PORTS, type PortSet, portsKey, subtractPorts } from "./ports";
import type { AccessRule } from "./rules";
import { parseAddress } from "../net/ipam";
import { compareBigInt } from "../routing/ordering";
import { classify, type NodeClasses } from "./classes";
import { type AccessSubject, hostPrefix, selectedPart } from "./selectors";

/** A node's inbound filter entry (DESIGN.md): traffic from these host prefixes on these ports may reach it. */
export interface InboundRule {
  from: string[];
  ports: string[];
}

/** The compiled access of a policy-mode network: the rules in force over its nodes, answered by class pair. */
export class CompiledAccess {
  private readonly sources: NodeClasses;
  private readonly targets: NodeClasses;
  /** Per source class, per target class: filled as asked (most pairs of a large policy are never asked). */
  private readonly pairs: (PortSet | undefined)[][];
  /** Per target class, whether each rule selects it: the inner loop of pairPorts. */
  private readonly targetSelects: Uint8Array[];
  private readonly inbound = new Map<number, { ports: PortSet; from: AccessSubject[] }[]>();

  constructor(
    readonly nodes: readonly AccessSubject[],
    readonly rules: readonly AccessRule[],
  ) {
    this.sources = classify(nodes, rules, "src");
    this.targets = classify(nodes, rules, "dst");
    this.pairs = this.sources.members.map(() => []);
    this.targetSelects = this.targets.rulesOf.map((selecting) => {
      const flags = new Uint8Array(rules.length);
      for (const i of selecting) flags[i] = 1;
      return flags;
    });
  }

  /** What a source class may send a target class: the allows both select, less the denies both select. */
  classPorts(source: number, target: number): PortSet {
    const known = this.pairs[source]![target];
    if (known) return known;
    const targetRules = this.targetSelects[target]!;
    let allowed = NO_PORTS;
    let denied = NO_PORTS;
    for (const i of this.sources.rulesOf[source]!) {
      if (!targetRules[i]) continue;
      const rule = this.rules[i]!;
      if (rule.action === "allow") allowed = joinPorts(allowed, rule.ports);
      else denied = joinPorts(denied, rule.ports);
    }
    const ports = subtractPorts(allowed, denied);
    this.pairs[source]![target] = ports;
    return ports;
  }

  /** What `from` may send `to` (both node ids of this network). */
  portsBetween(from: string, to: string): PortSet {
    const source = this.sources.classOf.get(from);
    const target = this.targets.classOf.get(to);
    if (source === undefined || target === undefined || from === to) return NO_PORTS;
    return this.classPorts(source, target);
  }

  /** Two nodes are peers when either may reach the other: replies and handshakes need the entry both ways. */
  mayPeer(a: string, b: string): boolean {
    return !isNoTraffic(this.portsBetween(a, b)) || !isNoTraffic(this.portsBetween(b, a));
  }

  /** The node's classes (source side, target side): nodes with equal classes get equal answers. */
  classesOf(nodeId: string): { source: number; target: number } | null {
    const source = this.sources.classOf.get(nodeId);
    const target = this.targets.classOf.get(nodeId);
    return source === undefined || target === undefined ? null : { source, target };
  }

  /**
   * The node's peers: the members of every class it may reach or that may reach it. Costs the classes
   * plus the peers found, so a laptop allowed 50 peers in a 10,000-node network reads about 50.
   */
  peersOf(nodeId: string): AccessSubject[] {
    const classes = this.classesOf(nodeId);
    if (!classes) return [];
    return [...this.peerCandidates(classes.source, classes.target)].filter((node) => node.id !== nodeId);
  }

  /**
   * The peers of a node of these classes, itself possibly among them: the members of the classes the two
   * share an allow rule with and that may send or receive something. Not kept: at 10,000 nodes the sets of
   * every class pair would hold ~14 MiB per topology for no gain in time (docs/performance.md).
   */
  peerCandidates(source: number, target: number): ReadonlySet<AccessSubject> {
    const peers = new Set<AccessSubject>();
    for (const other of this.sharingAllow(this.sources, source, this.targets)) {
      if (!isNoTraffic(this.classPorts(source, other))) for (const node of this.targets.members[other]!) peers.add(node);
    }
    for (const other of this.sharingAllow(this.targets, target, this.sources)) {
      if (!isNoTraffic(this.classPorts(other, target))) for (const node of this.sources.members[other]!) peers.add(node);
    }
    return peers;
  }

  /**
   * The classes of the other side that share an allow with `own` (a class of `side`): only those can be
   * sent anything, so a class's peers cost the classes its rules name, not every class of the network.
   */
  private sharingAllow(side: NodeClasses, own: number, other: NodeClasses): Set<number> {
    const found = new Set<number>();
    for (const i of side.rulesOf[own]!) {
      if (this.rules[i]!.action !== "allow") continue;
      for (const id of other.classesOf[i]!) found.add(id);
    }
    return found;
  }

  /** The node's inbound filter: one entry per port set, its sources' host prefixes sorted. */
  inboundRules(nodeId: string): InboundRule[] {
    const target = this.targets.classOf.get(nodeId);
    if (target === undefined) return [];
    const entries = this.inboundOfClass(target);
    return entries
      .map(({ ports, from }) => ({
        ports: formatPorts(ports),
        from: from.filter((node) => node.id !== nodeId).map((node) => hostPrefix(node.address).text),
      }))
      .filter((entry) => entry.from.length > 0);
  }

  /** A target class's inbound entries, its sources in address order (itself among them when it is a source). */
  inboundOfClass(target: number): readonly { ports: PortSet; from: AccessSubject[] }[] {
    const known = this.inbound.get(target);
    if (known) return known;
    const byPorts = new Map<string, { ports: PortSet; from: AccessSubject[] }>();
    for (const source of this.sharingAllow(this.targets, target, this.sources)) {
      const ports = this.classPorts(source, target);
      if (isNoTraffic(ports)) continue;
      const key = portsKey(ports);
      const entry = byPorts.get(key) ?? { ports, from: [] };
      entry.from.push(...this.sources.members[source]!);
      byPorts.set(key, entry);
    }
    const entries = [...byPorts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, entry]) => ({ ports: entry.ports, from: sortedByAddress(entry.from) }));
    this.inbound.set(target, entries);
    return entries;
  }

  /** Whether a source may reach any part of a routed destination: it keeps its route's first hop as a peer only then. */
  reachesDestination(nodeId: string, destination: Cidr): boolean {
    const source = this.sources.classOf.get(nodeId);
    if (source === undefined) return false;
    return this.sources.rulesOf[source]!.some((i) => {
      const rule = this.rules[i]!;
      return rule.action === "allow" && rule.dst.some((selector) => selectedPart(selector, destination) !== null);
    });
  }
}

/** Numeric address order (what configs list peers in: routing/ordering.ts), each address parsed once. */
function sortedByAddress(nodes: AccessSubject[]): AccessSubject[] {
  const keyed = nodes.map((node) => ({ node, value: parseAddress(node.address)?.value ?? -1n }));
  keyed.sort((a, b) => compareBigInt(a.value, b.value));
  return keyed.map(({ node }) => node);
}

/** Open mode is the policy that allows everything: one shape for configs, previews and checks. */
const ALLOW_EVERYTHING: AccessRule = {
  index: -1,
  action: "allow",
  src: [{ kind: "any" }],
  dst: [{ kind: "any" }],
  ports: ALL_TRAFFIC,
  expiresAt: null,
};

export function compileAccess(
  mode: "open" | "policy",
  nodes: readonly AccessSubject[],
  rulesInForce: readonly AccessRule[],
): CompiledAccess {
  return new CompiledAccess(nodes, mode === "open" ? [ALLOW_EVERYTHING] : rulesInForce);
}
