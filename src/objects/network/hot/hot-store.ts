import type { AdmittedPeerReport } from "../operations/peer-reports";
import type { ReportedPeer } from "../../../wire/heartbeat";
import { HOT_SCHEMA } from "./hot-schema";
import { storeTunnels, type TunnelRow, withCounters } from "./tunnel-counters";

export type { TunnelRow };

/** What a heartbeating node last said of itself (hot-schema.ts node_hot). */
export interface NodeHot {
  nodeId: string;
  lastSeenAt: string | null;
  appliedRevision: number | null;
  reportedEndpoint: string | null;
  peerReportSeq: number | null;
  peerResyncFrom: string | null;
}

/** What a reporter said of its peers: every one (the old full form), a delta, or nothing. */
export type PeerWrite = { full: ReportedPeer[] } | { delta: AdmittedPeerReport } | null;

const NODE_COLUMNS =
  "node_id AS nodeId, last_seen_at AS lastSeenAt, applied_revision AS appliedRevision, reported_endpoint AS reportedEndpoint, peer_report_seq AS peerReportSeq, peer_resync_from AS peerResyncFrom";
const TUNNEL_COLUMNS =
  "id, from_node_id AS fromNodeId, peer_public_key AS peerPublicKey, last_handshake_at AS lastHandshakeAt, endpoint, rx_bytes AS rxBytes, tx_bytes AS txBytes, reported_at AS reportedAt, created_at AS createdAt";

/**
 * The network's hot state, in its writer's SQLite storage: synchronous local writes, durable before the
 * writer answers (the runtime's output gate), so a heartbeat costs D1 nothing. Only the writer touches it.
 */
export class HotStore {
  /** Rows this store read and wrote since the object started, as SQLite counts them (what Durable Objects bill by). */
  readonly meter = { rowsRead: 0, rowsWritten: 0 };

  constructor(private readonly sql: SqlStorage) {
    for (const statement of HOT_SCHEMA) sql.exec(statement);
  }

  /** Runs one statement to its end and meters it. */
  private run<Row extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]): Row[] {
    const cursor = this.sql.exec<Row>(query, ...bindings);
    const rows = cursor.toArray();
    this.meter.rowsRead += cursor.rowsRead;
    this.meter.rowsWritten += cursor.rowsWritten;
    return rows;
  }

  node(nodeId: string): NodeHot | null {
    return (this.run(`SELECT ${NODE_COLUMNS} FROM node_hot WHERE node_id = ?`, nodeId)[0] ?? null) as NodeHot | null;
  }

  /** Every node's row, or those of `ids` (a page's nodes: looked up by key, not filtered from a scan). */
  nodes(ids?: readonly string[]): NodeHot[] {
    if (!ids) return this.run(`SELECT ${NODE_COLUMNS} FROM node_hot`) as unknown as NodeHot[];
    return this.run(
      `SELECT ${NODE_COLUMNS} FROM node_hot WHERE node_id IN (SELECT value FROM json_each(?))`,
      JSON.stringify(ids),
    ) as unknown as NodeHot[];
  }

  /**
   * A node's beat or report: its liveness and, when it spoke of peers, its tunnel rows. A full report makes the
   * rows exactly its peers; a delta upserts what changed (only keys `isPeerKey` accepts: the network's nodes, so
   * a reporter's rows stay bounded), drops what it removed and, ending a full report, what the report never touched.
   */
  recordReport(
    nodeId: string,
    at: string,
    self: { appliedRevision: number | null; reportedEndpoint?: string | null },
    peers: PeerWrite,
    isPeerKey: (key: string) => boolean,
  ) {
    const seq = peers && "delta" in peers ? { seq: peers.delta.seq, resync: peers.delta.completes ? null : peers.delta.resyncFrom } : null;
    this.run(
      `INSERT INTO node_hot (node_id, last_seen_at, applied_revision, reported_endpoint, peer_report_seq, peer_resync_from)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (node_id) DO UPDATE SET last_seen_at = excluded.last_seen_at, applied_revision = excluded.applied_revision,
         reported_endpoint = coalesce(excluded.reported_endpoint, reported_endpoint),
         peer_report_seq = CASE WHEN ? THEN excluded.peer_report_seq ELSE peer_report_seq END,
         peer_resync_from = CASE WHEN ? THEN excluded.peer_resync_from ELSE peer_resync_from END`,
      nodeId,
      at,
      self.appliedRevision,
      self.reportedEndpoint ?? null,
      seq?.seq ?? null,
      seq?.resync ?? null,
      // The old full form resets the sequence (a delta reporter must start again); silence keeps it.
      peers ? 1 : 0,
      peers ? 1 : 0,
    );
    if (!peers) return;
    const full = "full" in peers;
    const changed = full ? peers.full : peers.delta.changed.filter((peer) => isPeerKey(peer.publicKey));
    // A full report (or the last page of one) ends what it never touched: rows and figures older than its start.
    const endsFrom = full ? at : peers.delta.completes ? peers.delta.resyncFrom : null;
    storeTunnels(this.run.bind(this), nodeId, at, changed, full ? [] : peers.delta.removed, endsFrom);
  }

  /** A node's tunnel rows (what it reported). */
  tunnels(fromNodeId: string): TunnelRow[] {
    const rows = this.run(`SELECT ${TUNNEL_COLUMNS} FROM tunnels WHERE from_node_id = ?`, fromNodeId) as unknown as TunnelRow[];
    return withCounters(this.run.bind(this), rows, [fromNodeId]);
  }

  /** Every tunnel row of the network (the presence check's figures for /metrics). */
  allTunnels(): TunnelRow[] {
    return withCounters(this.run.bind(this), this.run(`SELECT ${TUNNEL_COLUMNS} FROM tunnels`) as unknown as TunnelRow[]);
  }

  /**
   * Up to `limit` rows after `after` in (createdAt, id) order (an index walk, not a scan), optionally only those
   * a node reports or that lead to its key.
   */
  tunnelPage(
    after: { createdAt: string; id: string } | undefined,
    limit: number,
    touching?: { nodeId: string; key: string | null },
  ): TunnelRow[] {
    const from = after ? "(created_at > ? OR (created_at = ? AND id > ?))" : "1";
    const position = after ? [after.createdAt, after.createdAt, after.id] : [];
    const node = touching ? "(from_node_id = ? OR peer_public_key = ?)" : "1";
    const nodeBindings = touching ? [touching.nodeId, touching.key ?? ""] : [];
    const rows = this.run(
      `SELECT ${TUNNEL_COLUMNS} FROM tunnels WHERE ${from} AND ${node} ORDER BY created_at, id LIMIT ?`,
      ...position,
      ...nodeBindings,
      limit,
    ) as unknown as TunnelRow[];
    return withCounters(this.run.bind(this), rows, [...new Set(rows.map((row) => row.fromNodeId))]);
  }

  /** A node left the network: what it reported goes with it. */
  forgetNode(nodeId: string) {
    this.run("DELETE FROM node_hot WHERE node_id = ?", nodeId);
    this.run("DELETE FROM node_configs WHERE node_id = ?", nodeId);
    this.run("DELETE FROM tunnels WHERE from_node_id = ?", nodeId);
    this.run("DELETE FROM tunnel_counters WHERE from_node_id = ?", nodeId);
  }

  /** The network was deleted: nothing of it stays. */
  clear() {
    this.run("DELETE FROM node_hot");
    this.run("DELETE FROM node_configs");
    this.run("DELETE FROM tunnels");
    this.run("DELETE FROM tunnel_counters");
  }

  meta(key: string): string | null {
    return (this.run<{ value: string }>("SELECT value FROM hot_meta WHERE key = ?", key)[0]?.value ?? null) as string | null;
  }
  setMeta(key: string, value: string) {
    this.run("INSERT INTO hot_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  /** Rows an import brings over as they were (import-from-d1.ts). */
  importNode(row: NodeHot) {
    this.run(
      "INSERT OR IGNORE INTO node_hot VALUES (?, ?, ?, ?, ?, ?)",
      row.nodeId,
      row.lastSeenAt,
      row.appliedRevision,
      row.reportedEndpoint,
      row.peerReportSeq,
      row.peerResyncFrom,
    );
  }
  importTunnel(row: TunnelRow) {
    this.run(
      "INSERT OR IGNORE INTO tunnels (from_node_id, peer_public_key, id, last_handshake_at, endpoint, rx_bytes, tx_bytes, reported_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      row.fromNodeId,
      row.peerPublicKey,
      row.id,
      row.lastHandshakeAt,
      row.endpoint,
      row.rxBytes,
      row.txBytes,
      row.reportedAt,
      row.createdAt,
    );
  }
}
