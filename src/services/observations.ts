import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { tunnelObservations } from "../db/schema";
import { newId } from "../lib/ids";

export interface PeerReport { publicKey: string; lastHandshakeAt: string | null; rxBytes: number; txBytes: number }

/** One upsert statement for a reporter's peers (devices' heartbeats and gateway daemons' reports alike). */
export function upsertObservations(db: Db, networkId: string, fromNodeId: string, peers: PeerReport[], now: string) {
  if (peers.length === 0) return [];
  const rows = peers.map((peer) => ({
    id: newId("tun"), networkId, fromNodeId, peerPublicKey: peer.publicKey, lastHandshakeAt: peer.lastHandshakeAt,
    rxBytes: peer.rxBytes, txBytes: peer.txBytes, reportedAt: now, createdAt: now,
  }));
  return [db.insert(tunnelObservations).values(rows).onConflictDoUpdate({
    target: [tunnelObservations.fromNodeId, tunnelObservations.peerPublicKey],
    set: {
      lastHandshakeAt: sql`excluded.last_handshake_at`, rxBytes: sql`excluded.rx_bytes`,
      txBytes: sql`excluded.tx_bytes`, reportedAt: sql`excluded.reported_at`,
    },
  })];
}
