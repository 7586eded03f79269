/**
 * Which config each node runs, kept as a digest in the writer's own SQLite (hot-schema.ts node_configs), so
 * runtime status can tell a node that runs the config it needs from one that is behind (views/config-currency.ts):
 * a revision that changed nothing for a node must not make it "lagging". A row is written only when a node's
 * revision changes (a report naming a new one, or the config a node that never reports was issued), not at every
 * beat, so it costs nothing on the heartbeat path.
 */
export interface AppliedConfig {
  nodeId: string;
  revision: number;
  /** null: the topology of that revision was no longer held when the node named it, so its config is not known. */
  digest: string | null;
  /** The config the node was issued at enrolment, with no report of its own since. */
  issued: boolean;
}

type Row = { nodeId: string; revision: number; digest: string | null; issued: number };

export class AppliedConfigs {
  constructor(private readonly sql: SqlStorage) {}

  all(): Map<string, AppliedConfig> {
    const rows = this.sql.exec<Row>("SELECT node_id AS nodeId, revision, digest, issued FROM node_configs").toArray() as unknown as Row[];
    return new Map(rows.map((row) => [row.nodeId, { ...row, issued: row.issued === 1 }]));
  }

  get(nodeId: string): AppliedConfig | undefined {
    const row = this.sql
      .exec<Row>("SELECT node_id AS nodeId, revision, digest, issued FROM node_configs WHERE node_id = ?", nodeId)
      .toArray()[0] as unknown as Row | undefined;
    return row && { ...row, issued: row.issued === 1 };
  }

  record(entry: AppliedConfig): void {
    this.sql.exec(
      `INSERT INTO node_configs (node_id, revision, digest, issued) VALUES (?, ?, ?, ?)
       ON CONFLICT (node_id) DO UPDATE SET revision = excluded.revision, digest = excluded.digest, issued = excluded.issued`,
      entry.nodeId,
      entry.revision,
      entry.digest,
      entry.issued ? 1 : 0,
    );
  }

  /** Whether some peer reported a handshake with this key: a node that never reports is running then. */
  seenByPeer(publicKey: string): boolean {
    return (
      this.sql.exec("SELECT 1 FROM tunnels WHERE peer_public_key = ? AND last_handshake_at IS NOT NULL LIMIT 1", publicKey).toArray()
        .length > 0
    );
  }
}
