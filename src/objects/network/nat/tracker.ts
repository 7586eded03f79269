/** What one report says that paths depend on: the revision its node runs, its handshakes, where it heard each peer. */
export interface PathReport {
  nodeId: string;
  appliedRevision: number | null;
  /** Peers the report carries: handshake time (ms; null: never) and endpoint as WireGuard holds it. */
  peers: { publicKey: string; handshakeAt: number | null; endpoint: string | null }[];
  /** A gateway agent's report (the operator's machine), not a device's heartbeat (its owner's word). */
  fromAgent?: boolean;
  /** From a device's heartbeat, its own endpoints (docs/nat.md): its LAN's, and the address the beat came from. */
  localEndpoints?: string[];
  publicHost?: string | null;
}

interface Seen {
  /** Revisions the node reported, oldest first, each with when it was first reported (a few kept). */
  applied: { revision: number; since: number }[];
  handshakes: Map<string, number>;
  lastReportAt: number;
}

const REVISIONS_KEPT = 16;

/**
 * What the network's writer heard from its nodes about their tunnels (docs/nat.md): which revision each runs
 * since when, and its latest handshake with each peer. Memory only: after a restart it knows nothing, and
 * decisions that need it wait for fresh reports (a pair is then judged later, never earlier). `startedAt` lets
 * expiry tell "unheard since the start" from "unheard for a long time".
 */
export class NatTracker {
  private readonly nodes = new Map<string, Seen>();
  readonly startedAt: number;
  /** Nodes whose pairs need judging at the next check: they reported something new, or a pair of theirs is due. */
  private focus = new Set<string>();
  /** When each node's own endpoints (LAN, source address) were last taken as changed. */
  readonly ownChangedAt = new Map<string, number>();
  /** Which gateway node last taught or confirmed each node's observed endpoint (memory only). */
  readonly observedBy = new Map<string, string>();
  /** When each node's observed endpoint was last confirmed by a report (memory: D1 keeps it coarsely). */
  readonly observedConfirmedAt = new Map<string, number>();

  constructor(now = Date.now()) {
    this.startedAt = now;
  }

  observe(report: PathReport, now: number): void {
    const seen: Seen = this.nodes.get(report.nodeId) ?? { applied: [], handshakes: new Map(), lastReportAt: now };
    this.nodes.set(report.nodeId, seen);
    seen.lastReportAt = now;
    this.focus.add(report.nodeId);
    const last = seen.applied.at(-1);
    if (report.appliedRevision !== null && (!last || last.revision !== report.appliedRevision)) {
      // A lower revision than before (a re-enrolled machine) starts the record over.
      if (last && report.appliedRevision < last.revision) seen.applied = [];
      seen.applied.push({ revision: report.appliedRevision, since: now });
      if (seen.applied.length > REVISIONS_KEPT) seen.applied.shift();
    }
    for (const peer of report.peers) {
      if (peer.handshakeAt !== null)
        seen.handshakes.set(peer.publicKey, Math.max(peer.handshakeAt, seen.handshakes.get(peer.publicKey) ?? 0));
    }
  }

  /** Since when the node has run `revision` or later, as far as reports tell; null if it has not reported one. */
  holdsSince(nodeId: string, revision: number): number | null {
    const applied = this.nodes.get(nodeId)?.applied ?? [];
    return applied.find((entry) => entry.revision >= revision)?.since ?? null;
  }

  lastHandshake(nodeId: string, peerKey: string): number | null {
    return this.nodes.get(nodeId)?.handshakes.get(peerKey) ?? null;
  }

  lastReportAt(nodeId: string): number | null {
    return this.nodes.get(nodeId)?.lastReportAt ?? null;
  }

  /** The nodes to judge now; the set starts over (a check marks again what stays due: dueAgain). */
  takeFocus(): Set<string> {
    const focus = this.focus;
    this.focus = new Set();
    return focus;
  }

  dueAgain(...nodeIds: string[]): void {
    for (const id of nodeIds) this.focus.add(id);
  }

  knows(nodeId: string): boolean {
    return this.nodes.has(nodeId);
  }

  /** Drops what it heard from nodes that are gone. */
  prune(exists: (nodeId: string) => boolean): void {
    for (const id of this.nodes.keys()) if (!exists(id)) this.nodes.delete(id);
    for (const id of this.observedConfirmedAt.keys()) if (!exists(id)) this.observedConfirmedAt.delete(id);
    for (const id of this.ownChangedAt.keys()) if (!exists(id)) this.ownChangedAt.delete(id);
    for (const id of this.observedBy.keys()) if (!exists(id)) this.observedBy.delete(id);
  }
}
