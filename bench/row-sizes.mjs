#!/usr/bin/env node
// Bytes a row takes on disk, indexes included, for docs/scale.md ("At 1,000,000 nodes"): the D1 tables
// the directory keeps (built from migrations/, as D1 runs them) and a model of the hot tables a network's
// Durable Object keeps (the columns today's nodes, tunnel_observations and node_presence hold for them).
// Fills each table with ROWS realistic rows in a scratch SQLite file, then reads SQLite's own page
// accounting (the dbstat table: every page of the table and of each of its indexes, free space included).
// Read-only for the project: it writes only its scratch file. Needs the sqlite3 command-line shell.
//   node bench/row-sizes.mjs [ROWS]      (default 20000; about 10 s)
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROWS = Number(process.argv[2] ?? 20_000);
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Ids as src/lib/ids.ts makes them: a prefix and 26 Crockford base32 characters. */
const id = (prefix) => `${prefix}_${Array.from(randomBytes(26), (b) => ALPHABET[b % 32]).join("")}`;
const key = () => randomBytes(32).toString("base64");
const hash = () => randomBytes(32).toString("base64url");
const at = (i) => new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
const ip = (i) => `10.${64 + ((i >> 16) & 63)}.${(i >> 8) & 255}.${i & 255}`;
const endpoint = (i) => `203.0.${(i >> 8) & 255}.${i & 255}:51820`;
const q = (value) => (value === null ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`);

/** The hot tables of a network's object, as docs/scale.md models them (not the lead's final DDL). */
const HOT_SCHEMA = `
CREATE TABLE hot_nodes (node_id TEXT PRIMARY KEY, last_seen_at TEXT, applied_routing_revision INTEGER,
  applied_dns_revision INTEGER, apply_error TEXT, reported_endpoint TEXT, peer_report_seq INTEGER, peer_resync_from TEXT,
  local_endpoints TEXT NOT NULL DEFAULT '[]', public_host TEXT, observed_endpoint TEXT, observed_at TEXT) WITHOUT ROWID;
CREATE TABLE hot_tunnels (from_node_id TEXT NOT NULL, peer_public_key TEXT NOT NULL, last_handshake_at TEXT,
  endpoint TEXT, rx_bytes INTEGER NOT NULL, tx_bytes INTEGER NOT NULL, reported_at TEXT NOT NULL,
  PRIMARY KEY (from_node_id, peer_public_key)) WITHOUT ROWID;
CREATE TABLE hot_presence (node_id TEXT PRIMARY KEY, state TEXT NOT NULL, changed_at TEXT NOT NULL, behind_since TEXT,
  drift_notified_revision INTEGER) WITHOUT ROWID;
CREATE TABLE outbox (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL, created_at TEXT NOT NULL);
`;

/** One realistic row per table, by index i (columns by name: the migrations' order does not matter). */
const ROW = {
  users: (i) => ({
    id: id("usr"),
    email: `user${i}@example.com`,
    name: `User ${i}`,
    password_hash: `scrypt$16384$8$5$${hash()}$${hash()}${hash()}`,
    platform_role: "user",
    created_at: at(i),
    updated_at: at(i),
  }),
  memberships: (i) => ({ group_id: id("grp"), user_id: id("usr"), role: "member", created_at: at(i), updated_at: at(i) }),
  sessions: (i) => ({ id: id("ses"), user_id: id("usr"), created_at: at(i), expires_at: at(i + 2_592_000) }),
  networks: (i) => ({
    id: id("net"),
    group_id: id("grp"),
    name: `network-${i}`,
    cidr: "10.64.0.0/16",
    dns_domain: `net${i}.example.internal`,
    routing_revision: 4000 + i,
    dns_revision: 300,
    access_mode: "open",
    access_revision: 1,
    created_at: at(i),
    updated_at: at(i),
  }),
  nodes: (i) => ({
    id: id("node"),
    network_id: id("net"),
    name: `laptop-${i}`,
    public_key: key(),
    address: ip(i),
    is_gateway: 0,
    device_id: id("dev"),
    routing_mode: "all",
    routing_policy_ids: "[]",
    tags: '["tag:laptops"]',
    revision: 4000 + i,
    serves_dns: 0,
    relay: 0,
    local_endpoints: `["192.168.1.${i & 255}:51820"]`,
    created_at: at(i),
    updated_at: at(i),
  }),
  devices: (i) => ({
    id: id("dev"),
    network_id: id("net"),
    node_id: id("node"),
    user_id: id("usr"),
    platform: "linux",
    client_version: "wgo/0.30.0",
    credential_hash: hash(),
    created_at: at(i),
    updated_at: at(i),
  }),
  node_presence: (i) => ({ node_id: id("node"), state: "online", changed_at: at(i), updated_at: at(i) }),
  tunnel_observations: (i) => ({
    id: id("tun"),
    network_id: id("net"),
    from_node_id: id("node"),
    peer_public_key: key(),
    last_handshake_at: at(i),
    endpoint: endpoint(i),
    rx_bytes: 1_000_000 + i * 977,
    tx_bytes: 2_000_000 + i * 991,
    reported_at: at(i),
    created_at: at(i),
  }),
  audit_events: (i) => ({
    id: id("aud"),
    created_at: at(i),
    actor_type: "user",
    actor_id: id("usr"),
    method: "POST",
    route: "/networks/:id/nodes",
    params: JSON.stringify({ id: id("net") }),
    resource_id: id("node"),
    group_id: id("grp"),
    network_id: id("net"),
    status: 201,
    request_id: crypto.randomUUID(),
  }),
  // A node.offline event as the presence detector raises it (src/scheduled/node-presence.ts).
  notification_events: (i) => {
    const node = { id: id("node"), name: `laptop-${i}`, address: ip(i), isGateway: false, gatewayId: null, deviceId: id("dev") };
    return {
      id: id("nev"),
      type: "node.offline",
      network_id: id("net"),
      group_id: id("grp"),
      subject_id: node.id,
      data: JSON.stringify({ node, lastSeenAt: at(i) }),
      dedupe_key: `node.offline:${node.id}:${at(i)}`,
      created_at: at(i),
    };
  },
  hot_nodes: (i) => ({
    node_id: id("node"),
    last_seen_at: at(i),
    applied_routing_revision: 4000 + i,
    reported_endpoint: endpoint(i),
    peer_report_seq: 1000 + i,
    local_endpoints: `["192.168.1.${i & 255}:51820"]`,
    public_host: `198.51.100.${i & 255}`,
  }),
  hot_tunnels: (i) => ({
    from_node_id: id("node"),
    peer_public_key: key(),
    last_handshake_at: at(i),
    endpoint: endpoint(i),
    rx_bytes: 1_000_000 + i * 977,
    tx_bytes: 2_000_000 + i * 991,
    reported_at: at(i),
  }),
  hot_presence: (i) => ({ node_id: id("node"), state: "online", changed_at: at(i) }),
  // An outbox row: one node's presence transition for D1 (the per-network aggregate row is about as large).
  outbox: (i) => ({ kind: "presence", payload: JSON.stringify({ nodeId: id("node"), state: "offline", at: at(i) }), created_at: at(i) }),
};

const dir = mkdtempSync(join(tmpdir(), "row-sizes-"));
const file = join(dir, "sizes.sqlite");
const migrations = join(import.meta.dirname, "..", "migrations");
const schema = readdirSync(migrations)
  .filter((name) => name.endsWith(".sql"))
  .sort()
  .map((name) => readFileSync(join(migrations, name), "utf8"))
  .join("\n");
const inserts = Object.entries(ROW).flatMap(([table, make]) => {
  const lines = ["BEGIN;"];
  for (let i = 0; i < ROWS; i++) {
    const row = make(i);
    lines.push(`INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.values(row).map(q).join(", ")});`);
  }
  return [...lines, "COMMIT;"];
});
try {
  execFileSync("sqlite3", [file], {
    input: `PRAGMA foreign_keys = OFF;\n${schema}\n${HOT_SCHEMA}\n${inserts.join("\n")}\n`,
    maxBuffer: 1 << 28,
  });
  const report = execFileSync(
    "sqlite3",
    [
      "-separator",
      "\t",
      file,
      `SELECT m.tbl_name, count(DISTINCT s.name), sum(s.pgsize) FROM dbstat s JOIN sqlite_schema m ON m.name = s.name
       GROUP BY m.tbl_name;`,
    ],
    { encoding: "utf8" },
  );
  const sizes = new Map(
    report
      .trim()
      .split("\n")
      .map((line) => line.split("\t"))
      .map(([table, btrees, bytes]) => [table, { btrees: Number(btrees), bytes: Number(bytes) }]),
  );
  console.log(`| table | b-trees (table + indexes) | bytes a row (${ROWS} rows) |`);
  console.log("| --- | ---: | ---: |");
  for (const table of Object.keys(ROW)) {
    const size = sizes.get(table);
    console.log(`| ${table} | ${size.btrees} | ${Math.round(size.bytes / ROWS)} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
