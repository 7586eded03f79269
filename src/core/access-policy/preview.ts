import type { CompiledAccess } from "./compile";
import { formatPorts, isNoTraffic, subtractPorts } from "./ports";
import type { AccessSubject } from "./selectors";

/** What applying a candidate policy would change (DESIGN.md: preview), before it is applied. */
export interface AccessPreview {
  /** Per node whose peers change: the node ids it gains and loses as peers. */
  peers: { nodeId: string; added: string[]; removed: string[] }[];
  /** Flows that change, by groups of nodes alike on both sides: what `from` gains and loses towards `to`. */
  flows: { from: string[]; to: string[]; gained: string[]; lost: string[] }[];
  /** More nodes changed than the answer lists (`limit`); the counts stay exact. */
  truncated: boolean;
  nodesChanged: number;
}

/** Groups nodes by a key, in the order they come. */
function groupBy(nodes: readonly AccessSubject[], key: (node: AccessSubject) => string | null) {
  const groups = new Map<string, AccessSubject[]>();
  for (const node of nodes) {
    const k = key(node);
    if (k === null) continue;
    const group = groups.get(k) ?? [];
    group.push(node);
    groups.set(k, group);
  }
  return groups;
}

const idsWithout = (nodes: Iterable<AccessSubject>, self: string) =>
  [...nodes]
    .map((node) => node.id)
    .filter((id) => id !== self)
    .sort();

/**
 * Compares two compilations over the same nodes (open mode is a policy that allows everything). Nodes
 * alike in both compilations are compared once: the work grows with the classes and the nodes that change.
 */
export function previewAccess(nodes: readonly AccessSubject[], before: CompiledAccess, after: CompiledAccess, limit = 1000): AccessPreview {
  const joint = (node: AccessSubject) => {
    const was = before.classesOf(node.id);
    const is = after.classesOf(node.id);
    return was && is ? { was, is } : null;
  };
  const peers: AccessPreview["peers"] = [];
  let nodesChanged = 0;
  const byPeerClass = groupBy(nodes, (node) => {
    const j = joint(node);
    return j && `${j.was.source}/${j.was.target}/${j.is.source}/${j.is.target}`;
  });
  for (const members of byPeerClass.values()) {
    const { was, is } = joint(members[0]!)!;
    const old = before.peerCandidates(was.source, was.target);
    const now = after.peerCandidates(is.source, is.target);
    const gained = [...now].filter((node) => !old.has(node));
    const lost = [...old].filter((node) => !now.has(node));
    for (const node of members) {
      const added = idsWithout(gained, node.id);
      const removed = idsWithout(lost, node.id);
      if (added.length === 0 && removed.length === 0) continue;
      nodesChanged++;
      if (peers.length < limit) peers.push({ nodeId: node.id, added, removed });
    }
  }
  const sources = groupBy(nodes, (node) => {
    const j = joint(node);
    return j && `${j.was.source}/${j.is.source}`;
  });
  const targets = groupBy(nodes, (node) => {
    const j = joint(node);
    return j && `${j.was.target}/${j.is.target}`;
  });
  const flows: AccessPreview["flows"] = [];
  for (const from of sources.values()) {
    const f = joint(from[0]!)!;
    for (const to of targets.values()) {
      const t = joint(to[0]!)!;
      const old = before.classPorts(f.was.source, t.was.target);
      const now = after.classPorts(f.is.source, t.is.target);
      const gained = subtractPorts(now, old);
      const lost = subtractPorts(old, now);
      if (isNoTraffic(gained) && isNoTraffic(lost)) continue;
      // A group that is only the one node on both sides is a node talking to itself: no flow.
      if (from.length === 1 && to.length === 1 && from[0] === to[0]) continue;
      if (flows.length < limit)
        flows.push({ from: from.map((n) => n.id), to: to.map((n) => n.id), gained: formatPorts(gained), lost: formatPorts(lost) });
    }
  }
  return { peers, flows, truncated: nodesChanged > peers.length || flows.length >= limit, nodesChanged };
}
