import { and, eq, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { insertWhere } from "../../../db/insert-where";
import { tunnelObservations } from "../../../db/schema";
import { newId } from "../../../lib/ids";

export interface PeerReport {
  publicKey: string;
  lastHandshakeAt: string | null;
  rxBytes: number;
  txBytes: number;
}

/** D1 binds at most 100 parameters per statement; a row here binds 9 and the guard 1, so 11 rows a statement. */
const ROWS_PER_STATEMENT = Math.floor((100 - 1) / 9);

/**
 * Statements for one batch that make the reporter's observations exactly `peers` (devices' heartbeats and
 * gateway daemons' reports alike): an upsert per peer, then the reporter's rows this report did not touch
 * go (a peer removed from the network, a rotated key). `peers` undefined: the report said nothing about
 * peers, so nothing is replaced. Rows are written only while the reporter's node exists when the batch
 * runs: a report checked just before its node was removed must not bring its observations back.
 */
export function replaceObservations(db: Db, networkId: string, fromNodeId: string, peers: PeerReport[] | undefined, now: string) {
  if (peers === undefined) return [];
  return [
    ...upsertObservations(db, networkId, fromNodeId, peers, now),
    db.delete(tunnelObservations).where(and(eq(tunnelObservations.fromNodeId, fromNodeId), lt(tunnelObservations.reportedAt, now))),
  ];
}

/** Upserts of these peers' rows, written only while the reporter's node exists. */
export function upsertObservations(db: Db, networkId: string, fromNodeId: string, peers: PeerReport[], now: string) {
  const rows = peers.map((peer) => ({
    id: newId("tun"),
    networkId,
    fromNodeId,
    peerPublicKey: peer.publicKey,
    lastHandshakeAt: peer.lastHandshakeAt,
    rxBytes: peer.rxBytes,
    txBytes: peer.txBytes,
    reportedAt: now,
    createdAt: now,
  }));
  const chunks = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) chunks.push(rows.slice(start, start + ROWS_PER_STATEMENT));
  const reporterExists = sql`exists (select 1 from nodes where id = ${fromNodeId})`;
  return chunks.map((chunk) => upsert(db, chunk, reporterExists));
}

function upsert(db: Db, rows: (typeof tunnelObservations.$inferInsert)[], onlyIf: SQL) {
  return insertWhere(db, tunnelObservations, rows, onlyIf).onConflictDoUpdate({
    target: [tunnelObservations.fromNodeId, tunnelObservations.peerPublicKey],
    set: {
      lastHandshakeAt: sql`excluded.last_handshake_at`,
      rxBytes: sql`excluded.rx_bytes`,
      txBytes: sql`excluded.tx_bytes`,
      reportedAt: sql`excluded.reported_at`,
    },
  });
}
