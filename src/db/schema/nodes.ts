import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { gateways } from "./gateways";
import { networks } from "./networks";

export const ROUTING_MODES = ["all", "none", "only"] as const;

export const nodes = sqliteTable(
  "nodes",
  {
    id: text().primaryKey(),
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    /** A DNS label: the node answers as <name>.<dnsDomain>. */
    name: text().notNull(),
    /** '' while a gateway node awaits its agent's key (core/net/wireguard-key.ts maps it to null). */
    publicKey: text().notNull(),
    /** Canonical overlay address (no prefix), allocated by the network's writer. */
    address: text().notNull(),
    endpoint: text(),
    listenPort: integer(),
    isGateway: integer({ mode: "boolean" }).notNull().default(false),
    gatewayId: text().references(() => gateways.id),
    deviceId: text(),
    /** Which routing policies apply when this node is a source (device routing preferences). */
    routingMode: text({ enum: ROUTING_MODES }).notNull().default("all"),
    routingPolicyIds: text({ mode: "json" }).$type<string[]>().notNull().default([]),
    /** Access-policy tags ("tag:web"), set by the group's owners and admins or carried by an enrolment key. */
    tags: text({ mode: "json" }).$type<string[]>().notNull().default([]),
    /** A gateway node that serves the network's zone on its overlay address (node configs name it as DNS server). */
    servesDns: integer({ mode: "boolean" }).notNull().default(false),
    /** A gateway node that relays pairs of nodes that cannot reach each other directly (docs/nat.md). */
    relay: integer({ mode: "boolean" }).notNull().default(false),
    /** Endpoint candidates the server learned (docs/nat.md): the node's LAN endpoints, from its heartbeats. */
    localEndpoints: text({ mode: "json" }).$type<string[]>().notNull().default([]),
    /** The address its heartbeats arrived from: a weak hint of its NAT's public address. */
    publicHost: text(),
    /** Its endpoint after NAT, as a gateway with a public endpoint saw it (wg show endpoints), and when. */
    observedEndpoint: text(),
    observedAt: text(),
    /** The network routing revision at which this node last changed. */
    revision: integer().notNull(),
    /**
     * What the node last reported applying; null until it reports. A gateway agent's reports write it here; a
     * device's heartbeats write the network object's hot state instead (objects/network/hot/: reads lay it over
     * this row), and this column keeps what the release before issue 30 wrote, which the object imports once.
     */
    appliedRoutingRevision: integer(),
    /** The DNS revision a gateway node's daemon last reported serving; null until it reports. */
    appliedDnsRevision: integer(),
    /** What the node's agent last reported it could not apply (it keeps the previous state); null when all applied. */
    applyError: text(),
    /** As appliedRoutingRevision: agents' reports write it; a device's presence transitions (the object's) set it. */
    lastSeenAt: text(),
    /** Before issue 30 (now in the network object's hot state, imported once from here). The sequence of this node's last accepted delta peer report (docs/scale.md); null: no base, the next one is full. */
    peerReportSeq: integer(),
    /** Before issue 30, as peerReportSeq. While a full peer report spans several requests: when it began (rows older than this go when it completes). */
    peerResyncFrom: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [
    uniqueIndex("nodes_network_address_uq").on(table.networkId, table.address),
    uniqueIndex("nodes_network_name_uq").on(table.networkId, table.name),
    // Keyless nodes (gateways awaiting their agent) hold '' and may be many.
    uniqueIndex("nodes_network_key_uq").on(table.networkId, table.publicKey).where(sql`${table.publicKey} <> ''`),
    index("nodes_network_created_idx").on(table.networkId, table.createdAt),
    index("nodes_gateway_idx").on(table.gatewayId),
    // The minute-by-minute offline/drift detection scans by last-seen time.
    index("nodes_last_seen_idx").on(table.lastSeenAt),
  ],
);
