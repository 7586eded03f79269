import type { CompiledAccess } from "../access-policy/compile";
import { portsKey } from "../access-policy/ports";
import type { AccessSubject } from "../access-policy/selectors";
import type { Topology, TopologyNode } from "./topology";

/**
 * Which nodes a change of the access policy alone leaves as they were. After a one-rule PUT every node
 * asks for its delta; rendering each node's config at both revisions to find the few that changed costs
 * the writer every peer of every node (docs/access.md, "Measured"). When the two topologies share their
 * routing inputs (nodes, policies, network) and differ only in access, a flat node that forwards nothing
 * has the same config exactly when its peers, its inbound filter and the routed destinations it may
 * reach are the same: all three follow from the node's classes, so nodes alike on both sides share one
 * answer and an unchanged node costs a lookup.
 */
export class AccessChange {
  private readonly sameInputs: boolean;
  private readonly byClasses = new Map<string, boolean>();

  constructor(
    private readonly older: Topology,
    private readonly current: Topology,
  ) {
    this.sameInputs = sameRoutingInputs(older, current);
  }

  /** True only when the node's config core at both revisions is the same (a false is always safe). */
  unchanged(nodeId: string): boolean {
    const { older, current } = this;
    const before = older.access;
    const after = current.access;
    if (!this.sameInputs || !before || !after) return false;
    // Gateways: their forward filters and chains read every rule; they are few, and diffed whole.
    if (current.forwarders.has(nodeId) || current.parent.has(nodeId) || current.children.has(nodeId)) return false;
    const was = before.classesOf(nodeId);
    const is = after.classesOf(nodeId);
    if (!was || !is) return false;
    const key = `${was.source}/${was.target}/${is.source}/${is.target}`;
    let same = this.byClasses.get(key);
    if (same === undefined) {
      same =
        sameIds(before.peerCandidates(was.source, was.target), after.peerCandidates(is.source, is.target)) &&
        sameInbound(before, was.target, after, is.target) &&
        [...current.destinationOf.values()].every(
          (destination) => before.reachesDestination(nodeId, destination) === after.reachesDestination(nodeId, destination),
        );
      this.byClasses.set(key, same);
    }
    return same;
  }
}

function sameIds(a: ReadonlySet<AccessSubject>, b: ReadonlySet<AccessSubject>): boolean {
  if (a.size !== b.size) return false;
  const ids = new Set([...a].map((node) => node.id));
  for (const node of b) if (!ids.has(node.id)) return false;
  return true;
}

/** Inbound filters of two target classes: equal entries, each its ports and its sources in the same order. */
function sameInbound(before: CompiledAccess, was: number, after: CompiledAccess, is: number): boolean {
  const a = before.inboundOfClass(was);
  const b = after.inboundOfClass(is);
  return (
    a.length === b.length &&
    a.every(
      (entry, i) =>
        portsKey(entry.ports) === portsKey(b[i]!.ports) &&
        entry.from.length === b[i]!.from.length &&
        entry.from.every((node, k) => node.id === b[i]!.from[k]!.id),
    )
  );
}

/** Whether two topologies were built from the same network, nodes and policies (their revisions aside). */
export function sameRoutingInputs(a: Topology, b: Topology): boolean {
  const x = a.network;
  const y = b.network;
  if (x.id !== y.id || x.cidr !== y.cidr || x.dnsDomain !== y.dnsDomain || x.dnsServers.join() !== y.dnsServers.join()) return false;
  if (a.nodes.size !== b.nodes.size || a.ignoredNodes.join() !== b.ignoredNodes.join()) return false;
  for (const [id, node] of b.nodes) {
    const other = a.nodes.get(id);
    if (!other || !sameNode(other, node)) return false;
  }
  const policies = (t: Topology) => JSON.stringify([t.policiesById.map(({ policy }) => policy), t.skippedPolicies]);
  return policies(a) === policies(b);
}

function sameNode(a: TopologyNode, b: TopologyNode): boolean {
  return (
    a.name === b.name &&
    a.address === b.address &&
    a.publicKey === b.publicKey &&
    a.endpoint === b.endpoint &&
    a.listenPort === b.listenPort &&
    a.isGateway === b.isGateway &&
    JSON.stringify(a.routing) === JSON.stringify(b.routing)
  );
}
