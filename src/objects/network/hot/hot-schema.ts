/**
 * The network's hot state in its writer's own SQLite storage (docs/scale.md "Where state lives"): what nodes
 * report many times a minute, which no query across networks needs row by row. D1 keeps the directory.
 * Each statement is idempotent: the object runs them all whenever it starts.
 */
export const HOT_SCHEMA = [
  // What a heartbeating node last said of itself. A node without a row has never beaten since the object held it.
  `CREATE TABLE IF NOT EXISTS node_hot (
    node_id TEXT PRIMARY KEY,
    last_seen_at TEXT,
    applied_revision INTEGER,
    reported_endpoint TEXT,
    peer_report_seq INTEGER,
    peer_resync_from TEXT
  )`,
  // One tunnel end as its reporter (a device's heartbeat or a gateway agent's report) last described it.
  `CREATE TABLE IF NOT EXISTS tunnels (
    from_node_id TEXT NOT NULL,
    peer_public_key TEXT NOT NULL,
    id TEXT NOT NULL,
    last_handshake_at TEXT,
    endpoint TEXT,
    rx_bytes INTEGER NOT NULL,
    tx_bytes INTEGER NOT NULL,
    reported_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (from_node_id, peer_public_key)
  ) WITHOUT ROWID`,
  // Each reporter's tunnels' moving figures (handshake, bytes, when reported), 256 tunnels to a row as JSON
  // (tunnel-counters.ts): a beat rewrites its reporter's slot, not a row per tunnel. A tunnel row's own figures are
  // those of when it was last written (new, its endpoint moved, its handshake came or went); its slot's are newer.
  `CREATE TABLE IF NOT EXISTS tunnel_counters (
    from_node_id TEXT NOT NULL,
    slot INTEGER NOT NULL,
    counters TEXT NOT NULL,
    PRIMARY KEY (from_node_id, slot)
  ) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS tunnels_page_idx ON tunnels (created_at, id)`,
  // GET /tunnels?nodeId=: the tunnels that lead to a node, by its key.
  `CREATE INDEX IF NOT EXISTS tunnels_peer_idx ON tunnels (peer_public_key)`,
  // What the network's presence check last concluded of each device node (presence-clock.ts): each change is
  // written to D1 once, as the cron did for every node before.
  `CREATE TABLE IF NOT EXISTS node_presence (
    node_id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    behind_since TEXT,
    drift_notified_revision INTEGER
  )`,
  // The config each node runs, as a digest of it without its revision (applied-configs.ts): the one of the revision
  // its last report named, or, for a node that never reports (a config file in a WireGuard app), the one it was issued.
  `CREATE TABLE IF NOT EXISTS node_configs (
    node_id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    digest TEXT,
    issued INTEGER NOT NULL
  )`,
  // Facts about the store itself: when its rows came over from D1 (import-from-d1.ts).
  "CREATE TABLE IF NOT EXISTS hot_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
];
