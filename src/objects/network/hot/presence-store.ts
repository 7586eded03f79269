/** What the presence check last concluded of a device node (hot-schema.ts node_presence). */
export interface PresenceRow {
  nodeId: string;
  state: "online" | "offline";
  changedAt: string;
  /** When the node was first seen online and behind the network's routing revision; null otherwise. */
  behindSince: string | null;
  /** The desired revision config.drift was last announced for. */
  driftNotifiedRevision: number | null;
}

const COLUMNS =
  "node_id AS nodeId, state, changed_at AS changedAt, behind_since AS behindSince, drift_notified_revision AS driftNotifiedRevision";

/** The presence rows in the writer's SQLite: written only by its presence check (presence-clock.ts). */
export class PresenceStore {
  constructor(private readonly sql: SqlStorage) {}

  rows(): Map<string, PresenceRow> {
    const rows = this.sql.exec(`SELECT ${COLUMNS} FROM node_presence`).toArray() as unknown as PresenceRow[];
    return new Map(rows.map((row) => [row.nodeId, row]));
  }

  state(nodeId: string): PresenceRow["state"] | null {
    return (this.sql.exec<{ state: string }>("SELECT state FROM node_presence WHERE node_id = ?", nodeId).toArray()[0]?.state ?? null) as
      | PresenceRow["state"]
      | null;
  }

  put(row: PresenceRow) {
    this.sql.exec(
      `INSERT INTO node_presence (node_id, state, changed_at, behind_since, drift_notified_revision) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (node_id) DO UPDATE SET state = excluded.state, changed_at = excluded.changed_at,
         behind_since = excluded.behind_since, drift_notified_revision = excluded.drift_notified_revision`,
      row.nodeId,
      row.state,
      row.changedAt,
      row.behindSince,
      row.driftNotifiedRevision,
    );
  }

  delete(nodeId: string) {
    this.sql.exec("DELETE FROM node_presence WHERE node_id = ?", nodeId);
  }
}
