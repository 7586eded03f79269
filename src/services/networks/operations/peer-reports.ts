import { and, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { tunnelObservations } from "../../../db/schema";
import { type TunnelObservation, upsertObservations } from "./observations";

/**
 * Delta peer reports (docs/scale.md "Peer reports"). A node with thousands of peers cannot send them all
 * in a 64 KiB body, and most never carry anything, so it sends only what changed since the report the
 * server last accepted from it (`base`, the seq that report was answered), in pages when needed. A peer
 * never sent keeps its row exactly as last reported; a removed one loses it. When the server holds no
 * such base (a new reporter, a lost answer, a report replaced by the old full form) it answers
 * `resync` and the node sends a full report: `base: null`, every peer with a handshake or bytes, over
 * as many pages as it needs; when its last page lands, the rows it did not touch (peers gone meanwhile) go.
 */
export interface PeerDelta {
  base: number | null;
  /** [publicKey, handshake in Unix seconds (0: never), rxBytes, txBytes, endpoint?] */
  changed: [string, number, number, number, string?][];
  removed: string[];
  more: boolean;
}

/** What the node row says of its reports (read with the access check, before the write). */
export interface PeerReportBase {
  peerReportSeq: number | null;
  peerResyncFrom: string | null;
}

/** A delta the server accepted, as the write needs it (plain data: it crosses to the network's writer). */
export interface AdmittedDelta {
  changed: TunnelObservation[];
  removed: string[];
  seq: number;
  /** The start of the full report under way (this one's time when it starts one); null when none is. */
  resyncFrom: string | null;
  /** This page ends a full report: rows older than resyncFrom go. */
  completes: boolean;
}

export type PeerReportAnswer = { seq: number; resync: false } | { seq: null; resync: true };

/** Accepts a delta that builds on what the server holds (or starts a full report); anything else asks for a resync. */
export function admitPeerDelta(node: PeerReportBase, delta: PeerDelta, now: string): AdmittedDelta | null {
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

export const peerReportAnswer = (admitted: AdmittedDelta | null): PeerReportAnswer =>
  admitted ? { seq: admitted.seq, resync: false } : { seq: null, resync: true };

/** The node row's columns an accepted delta sets (written with the node's last-seen time, in the same statement). */
export const peerReportColumns = (admitted: AdmittedDelta) => ({
  peerReportSeq: admitted.seq,
  peerResyncFrom: admitted.completes ? null : admitted.resyncFrom,
});

/** The old full form replaces every row: a delta reporter must start again from a full report. */
export const fullReportColumns = { peerReportSeq: null, peerResyncFrom: null };

/** D1 binds at most 100 parameters a statement: keys to delete, with the reporter's id. */
const KEYS_PER_DELETE = 90;

/** Upserts of the changed peers, deletes of the removed ones and, on a full report's last page, of the rows it did not touch. */
export function peerDeltaStatements(db: Db, networkId: string, fromNodeId: string, admitted: AdmittedDelta, now: string) {
  const removals = [];
  for (let start = 0; start < admitted.removed.length; start += KEYS_PER_DELETE) {
    const keys = admitted.removed.slice(start, start + KEYS_PER_DELETE);
    removals.push(
      db
        .delete(tunnelObservations)
        .where(and(eq(tunnelObservations.fromNodeId, fromNodeId), inArray(tunnelObservations.peerPublicKey, keys))),
    );
  }
  const stale =
    admitted.completes && admitted.resyncFrom !== null
      ? [
          db
            .delete(tunnelObservations)
            .where(and(eq(tunnelObservations.fromNodeId, fromNodeId), lt(tunnelObservations.reportedAt, admitted.resyncFrom))),
        ]
      : [];
  return [...upsertObservations(db, networkId, fromNodeId, admitted.changed, now, true), ...removals, ...stale];
}

/** Two deltas of one node in one group commit (two reporters at once): both pages' peers land, the newer's seq wins. */
export function mergeDeltas(older: AdmittedDelta, newer: AdmittedDelta): AdmittedDelta {
  const newerKeys = new Set([...newer.changed.map((peer) => peer.publicKey), ...newer.removed]);
  return {
    ...newer,
    changed: [...older.changed.filter((peer) => !newerKeys.has(peer.publicKey)), ...newer.changed],
    removed: [...older.removed.filter((key) => !newerKeys.has(key)), ...newer.removed],
    resyncFrom: newer.resyncFrom ?? older.resyncFrom,
  };
}
