import { and, eq, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { insertWhere } from "../../../db/insert-where";
import { tunnelObservations } from "../../../db/schema";
import { newId } from "../../../lib/ids";

/** One tunnel as its node reports it: the peer's key, its last handshake, the interface's counters, where it heard the peer. */
export interface TunnelObservation {
  publicKey: string;
  lastHandshakeAt: string | null;
  rxBytes: number;
  txBytes: number;
  /** The peer's endpoint as the reporter's WireGuard holds it (wg show endpoints); absent from older clients. */
  endpoint?: string | null;
}

/** D1 binds at most 100 parameters per statement; a row here binds 10 and the guards 2, so 9 rows a statement. */
const ROWS_PER_STATEMENT = Math.floor((100 - 2) / 10);

/**
 * Statements for one batch that make the reporter's observations exactly `peers` (devices' heartbeats and
 * gateway daemons' reports alike): an upsert per peer, then the reporter's rows this report did not touch
 * go (a peer removed from the network, a rotated key). `peers` undefined: the report said nothing about
 * peers, so nothing is replaced. Rows are written only while the reporter's node exists when the batch
 * runs: a report checked just before its node was removed must not bring its observations back.
 */
export function replaceObservations(db: Db, networkId: string, fromNodeId: string, peers: TunnelObservation[] | undefined, now: string) {
  if (peers === undefined) return [];
  return [
    ...upsertObservations(db, networkId, fromNodeId, peers, now),
    db.delete(tunnelObservations).where(and(eq(tunnelObservations.fromNodeId, fromNodeId), lt(tunnelObservations.reportedAt, now))),
  ];
}

/** Upserts of these peers' rows, written only while the reporter's node exists. */
export function upsertObservations(
  db: Db,
  networkId: string,
  fromNodeId: string,
  peers: TunnelObservation[],
  now: string,
  onlyNetworkKeys = false,
) {
  const rows = peers.map((peer) => ({
    id: newId("tun"),
    networkId,
    fromNodeId,
    peerPublicKey: peer.publicKey,
    lastHandshakeAt: peer.lastHandshakeAt,
    endpoint: peer.endpoint ?? null,
    rxBytes: peer.rxBytes,
    txBytes: peer.txBytes,
    reportedAt: now,
    createdAt: now,
  }));
  const chunks = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) chunks.push(rows.slice(start, start + ROWS_PER_STATEMENT));
  const reporterExists = sql`exists (select 1 from nodes where id = ${fromNodeId})`;
  // A delta adds rows rather than replacing them: only keys of the network's nodes may have one, so what
  // a reporter holds stays bounded by the network's size. VALUES names its columns column1…: column4 is
  // peer_public_key (the table's order, which insertWhere follows). One index lookup a row: the key index is
  // partial (keyless gateway nodes hold ''), and SQLite uses it only when the query repeats its condition;
  // without `<> ''` each peer scanned the network's nodes (1,363 rows read a beat at 10,000 nodes).
  const peerIsNode = sql`exists (select 1 from nodes where network_id = ${networkId} and public_key = column4 and public_key <> '')`;
  return chunks.map((chunk) => upsert(db, chunk, onlyNetworkKeys ? sql`${reporterExists} and ${peerIsNode}` : reporterExists));
}

function upsert(db: Db, rows: (typeof tunnelObservations.$inferInsert)[], onlyIf: SQL) {
  return insertWhere(db, tunnelObservations, rows, onlyIf).onConflictDoUpdate({
    target: [tunnelObservations.fromNodeId, tunnelObservations.peerPublicKey],
    set: {
      lastHandshakeAt: sql`excluded.last_handshake_at`,
      // An older client says nothing of endpoints: what a newer report said stays.
      endpoint: sql`coalesce(excluded.endpoint, ${tunnelObservations.endpoint})`,
      rxBytes: sql`excluded.rx_bytes`,
      txBytes: sql`excluded.tx_bytes`,
      reportedAt: sql`excluded.reported_at`,
    },
  });
}
