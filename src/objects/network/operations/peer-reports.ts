import type { PeerReport, PeerReportAnswer, ReportedPeer } from "../../../wire/heartbeat";

/**
 * Delta peer reports (docs/scale.md "Peer reports"). A node with thousands of peers cannot send them all
 * in a 64 KiB body, and most never carry anything, so it sends only what changed since the report the
 * server last accepted from it (`base`, the seq that report was answered), in pages when needed. A peer
 * never sent keeps its row exactly as last reported; a removed one loses it. When the server holds no
 * such base (a new reporter, a lost answer, a report replaced by the old full form) it answers
 * `resync` and the node sends a full report: `base: null`, every peer with a handshake or bytes, over
 * as many pages as it needs; when its last page lands, the rows it did not touch (peers gone meanwhile) go.
 */
/** What the node's hot row says of its reports (hot/hot-store.ts NodeHot), read in the writer. */
export interface PeerReportBase {
  peerReportSeq: number | null;
  peerResyncFrom: string | null;
}

/** A delta the server accepted, as the write needs it (plain data: it crosses to the network's writer). */
export interface AdmittedPeerReport {
  changed: ReportedPeer[];
  removed: string[];
  seq: number;
  /** The start of the full report under way (this one's time when it starts one); null when none is. */
  resyncFrom: string | null;
  /** This page ends a full report: rows older than resyncFrom go. */
  completes: boolean;
}

/** Accepts a delta that builds on what the server holds (or starts a full report); anything else asks for a resync. */
export function admitPeerReport(node: PeerReportBase, delta: PeerReport, now: string): AdmittedPeerReport | null {
  const starts = delta.base === null;
  if (!starts && delta.base !== node.peerReportSeq) return null;
  const resyncFrom = starts ? now : node.peerResyncFrom;
  return {
    changed: delta.changed.map(([publicKey, handshake, rxBytes, txBytes, endpoint]) => ({
      publicKey,
      lastHandshakeAt: handshake > 0 ? new Date(handshake * 1000).toISOString() : null,
      rxBytes,
      txBytes,
      ...(endpoint !== undefined ? { endpoint } : {}),
    })),
    // A key both changed and removed in one page is a contradiction; the change wins (the row stays exact for it).
    removed: delta.removed.filter((key) => !delta.changed.some(([changed]) => changed === key)),
    // Monotonic across full reports too: a stale base of an earlier run can never match again.
    seq: (node.peerReportSeq ?? 0) + 1,
    resyncFrom,
    completes: resyncFrom !== null && !delta.more,
  };
}

export const peerReportAnswer = (admitted: AdmittedPeerReport | null): PeerReportAnswer =>
  admitted ? { seq: admitted.seq, resync: false } : { seq: null, resync: true };
