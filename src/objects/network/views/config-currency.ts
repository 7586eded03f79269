import type { AppliedConfigs } from "../hot/applied-configs";
import type { NodeHot } from "../hot/hot-store";
import type { HeldNetwork } from "../memory/held-network";
import type { TopologyCache } from "../memory/topology-cache";
import { configCoreFor, type Topology } from "../../../core/routing";

/**
 * Whether a node runs the config it needs, not only the latest revision number (docs/api.md, runtime status).
 * Most revisions change a few nodes' configs (a learned endpoint changes the configs of that node's peers, not its
 * own): a node that applied revision 7 when revision 8 changed nothing for it runs revision 8's config, and is
 * not lagging. The writer keeps a digest of each node's config at the revision it applied (hot/applied-configs.ts)
 * and compares it with the digest of its config now.
 */

const digests = new WeakMap<Topology, Map<string, string>>();

/** A node's config at a topology without its revision number: equal digests, equal configs. Once per topology. */
export function configDigest(topology: Topology, nodeId: string): string | null {
  if (!topology.nodes.has(nodeId)) return null;
  const known = digests.get(topology) ?? new Map<string, string>();
  digests.set(topology, known);
  const cached = known.get(nodeId);
  if (cached) return cached;
  const { routingRevision: _revision, ...core } = configCoreFor(topology, nodeId);
  const digest = hash64(JSON.stringify(core));
  known.set(nodeId, digest);
  return digest;
}

/** Two 32-bit FNV-1a lanes with different offsets: a 64-bit digest, fast on configs of megabytes. */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 15);
  }
  return `${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}

/**
 * After reports: each node that names a revision it did not name before gets the digest of its config at that
 * revision, while the writer still holds that revision's topology (it served it moments ago); else null (unknown).
 */
export function noteReports(
  configs: AppliedConfigs,
  topologies: TopologyCache,
  held: HeldNetwork,
  reports: { nodeId: string; appliedRevision: number | null }[],
): void {
  for (const { nodeId, appliedRevision } of reports) {
    if (appliedRevision === null || !held.nodes.has(nodeId)) continue;
    const known = configs.get(nodeId);
    if (known && !known.issued && known.revision === appliedRevision) continue;
    const topology = appliedRevision === held.network.routingRevision ? topologies.current(held) : topologies.at(appliedRevision);
    // A node that starts reporting the revision it was issued runs that config: its digest stays.
    const digest = topology ? configDigest(topology, nodeId) : known?.revision === appliedRevision ? known.digest : null;
    configs.record({ nodeId, revision: appliedRevision, digest, issued: false });
  }
}

/** At enrolment: the config the device was issued, all a node that never reports (a WireGuard app) will run. */
export function noteIssued(configs: AppliedConfigs, held: HeldNetwork, current: Topology, nodeId: string): void {
  if (configs.get(nodeId)) return;
  configs.record({ nodeId, revision: held.network.routingRevision, digest: configDigest(current, nodeId), issued: true });
}

/**
 * Each node's applied revision as runtime status counts it: the revision it reported, or the network's revision
 * when its config then is the one it needs now. A node with no report of its own that was issued a config and that
 * a peer reports a handshake with runs that config (a phone's WireGuard app). Nodes with neither are left out.
 */
export function appliedRevisions(held: HeldNetwork, current: () => Topology, reports: NodeHot[], configs: AppliedConfigs) {
  const revision = held.network.routingRevision;
  const reported = new Map(reports.map((report) => [report.nodeId, report.appliedRevision]));
  const known = configs.all();
  const applied: { nodeId: string; appliedRevision: number }[] = [];
  for (const node of held.nodes.values()) {
    const entry = known.get(node.id);
    let at = reported.get(node.id) ?? null;
    if (at === null && entry?.issued && node.publicKey && configs.seenByPeer(node.publicKey)) at = entry.revision;
    if (at === null) continue;
    const same = at < revision && entry?.revision === at && entry.digest !== null && entry.digest === configDigest(current(), node.id);
    applied.push({ nodeId: node.id, appliedRevision: same ? revision : at });
  }
  return applied;
}
