import { parseAddress } from "../net/ipam";
import { compareBigInt } from "../routing/ordering";
import type { CompiledAccess } from "./compile";
import { formatPorts, isNoTraffic, joinPorts, NO_PORTS, type PortSet, subtractPorts } from "./ports";
import type { AccessRule } from "./rules";
import { type AccessSubject, hostPrefix, selectsNode } from "./selectors";

/** Nodes alike towards one destination node: the ports they may send it, and the rules that decide it. */
export interface AccessSourceGroup {
  /** In address order; fewer than nodeCount once the answer's `limit` of ids is spent. */
  nodeIds: string[];
  nodeCount: number;
  ports: string[];
  /** Document indexes of the allows that give these ports (empty in open mode: the mode allows everything). */
  allowedBy: number[];
  /** Document indexes of the denies that carve ports out of those allows. */
  deniedBy: number[];
}

export interface AccessSources {
  sources: AccessSourceGroup[];
  /** More source nodes than `limit` may reach it: every group is listed, its ids cut (nodeCount stays exact). */
  truncated: boolean;
  nodesAllowed: number;
}

const selects = (side: AccessRule["src"], node: AccessSubject) => {
  const prefix = hostPrefix(node.address);
  return side.some((selector) => selectsNode(selector, node, prefix));
};

/** Numeric address order, as configs list peers (routing/ordering.ts). */
const byAddress = (nodes: AccessSubject[]) =>
  nodes
    .map((node) => ({ node, value: parseAddress(node.address)?.value ?? -1n }))
    .sort((a, b) => compareBigInt(a.value, b.value))
    .map(({ node }) => node);

const overlap = (a: PortSet, b: PortSet) => subtractPorts(a, subtractPorts(a, b));

/**
 * "Who can reach this node and why": every node that may send `target` something, grouped by source class
 * (nodes no rule tells apart get one answer, so the work is the classes × the rules, not the nodes), each
 * group with its ports and the rules that decided them: the allows that still carry a port after the
 * denies, and the denies that took ports away. The same compilation as the configs and filters.
 */
export function accessSourcesOf(compiled: CompiledAccess, target: AccessSubject, limit = 1000): AccessSources {
  const targetClass = compiled.classesOf(target.id)?.target;
  if (targetClass === undefined) return { sources: [], truncated: false, nodesAllowed: 0 };
  const byClass = new Map<number, AccessSubject[]>();
  for (const node of compiled.nodes) {
    if (node.id === target.id) continue;
    const source = compiled.classesOf(node.id)?.source;
    if (source === undefined) continue;
    const members = byClass.get(source) ?? [];
    members.push(node);
    byClass.set(source, members);
  }
  const sources: AccessSourceGroup[] = [];
  let nodesAllowed = 0;
  let listed = 0;
  for (const [sourceClass, members] of byClass) {
    const ports = compiled.classPorts(sourceClass, targetClass);
    if (isNoTraffic(ports)) continue;
    nodesAllowed += members.length;
    const deciding = compiled.rules.filter((rule) => selects(rule.src, members[0]!) && selects(rule.dst, target));
    const denied = deciding.filter((rule) => rule.action === "deny").reduce((set, rule) => joinPorts(set, rule.ports), NO_PORTS);
    const allowed = deciding.filter((rule) => rule.action === "allow").reduce((set, rule) => joinPorts(set, rule.ports), NO_PORTS);
    // Sorting costs a parse per member: only groups that still show ids pay it.
    const shown = listed >= limit ? [] : byAddress(members).slice(0, limit - listed);
    listed += shown.length;
    sources.push({
      nodeIds: shown.map((node) => node.id),
      nodeCount: members.length,
      ports: formatPorts(ports),
      allowedBy: deciding
        .filter((rule) => rule.action === "allow" && rule.index >= 0 && !isNoTraffic(subtractPorts(rule.ports, denied)))
        .map((rule) => rule.index),
      deniedBy: deciding.filter((rule) => rule.action === "deny" && !isNoTraffic(overlap(rule.ports, allowed))).map((rule) => rule.index),
    });
  }
  return { sources, truncated: nodesAllowed > listed, nodesAllowed };
}
