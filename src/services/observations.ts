import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { tunnelObservations } from "../db/schema";
import { newId } from "../lib/ids";

export interface PeerReport { publicKey: string; lastHandshakeAt: string | null; rxBytes: number; txBytes: number }

/** D1 binds at most 100 parameters per statement; a row here binds 9, so 11 rows a statement. */
const ROWS_PER_STATEMENT = Math.floor(100 / 9);

/** Upsert statements for a reporter's peers (devices' heartbeats and gateway daemons' reports alike), for one batch. */
export function upsertObservations(db: Db, networkId: string, fromNodeId: string, peers: PeerReport[], now: string) {
  const rows = peers.map((peer) => ({
    id: newId("tun"), networkId, fromNodeId, peerPublicKey: peer.publicKey, lastHandshakeAt: peer.lastHandshakeAt,
    rxBytes: peer.rxBytes, txBytes: peer.txBytes, reportedAt: now, createdAt: now,
  }));
  const chunks = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) chunks.push(rows.slice(start, start + ROWS_PER_STATEMENT));
  return chunks.map((chunk) => upsert(db, chunk));
}

function upsert(db: Db, rows: (typeof tunnelObservations.$inferInsert)[]) {
  return db.insert(tunnelObservations).values(rows).onConflictDoUpdate({
    target: [tunnelObservations.fromNodeId, tunnelObservations.peerPublicKey],
    set: {
      lastHandshakeAt: sql`excluded.last_handshake_at`, rxBytes: sql`excluded.rx_bytes`,
      txBytes: sql`excluded.tx_bytes`, reportedAt: sql`excluded.reported_at`,
    },
  });
}
