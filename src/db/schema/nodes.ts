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
    /** The network routing revision at which this node last changed. */
    revision: integer().notNull(),
    /** What the node last reported applying (heartbeats); null until it reports. */
    appliedRoutingRevision: integer(),
    /** The DNS revision a gateway node's daemon last reported serving; null until it reports. */
    appliedDnsRevision: integer(),
    lastSeenAt: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [
    uniqueIndex("nodes_network_address_uq").on(table.networkId, table.address),
    uniqueIndex("nodes_network_name_uq").on(table.networkId, table.name),
    uniqueIndex("nodes_network_key_uq").on(table.networkId, table.publicKey),
    index("nodes_network_created_idx").on(table.networkId, table.createdAt),
    index("nodes_gateway_idx").on(table.gatewayId),
    // The minute-by-minute offline/drift detection scans by last-seen time.
    index("nodes_last_seen_idx").on(table.lastSeenAt),
  ],
);
