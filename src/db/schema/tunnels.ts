import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";

/**
 * Before issue 30 only: tunnels now live in each network object's hot state (objects/network/hot/), which
 * imports a network's rows from here once and deletes them. The latest observation of one tunnel end: what node `fromNodeId` reports about its peer with
 * `peerPublicKey` (the peer's node is resolved at read time, so heartbeats do not pay for a lookup).
 */
export const tunnelObservations = sqliteTable(
  "tunnel_observations",
  {
    id: text().primaryKey(),
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    fromNodeId: text().notNull(),
    peerPublicKey: text().notNull(),
    lastHandshakeAt: text(),
    /** Where the reporter's WireGuard last heard the peer from (wg show endpoints); null when it never did. */
    endpoint: text(),
    rxBytes: integer().notNull(),
    txBytes: integer().notNull(),
    reportedAt: text().notNull(),
    createdAt: text().notNull(),
  },
  (table) => [
    uniqueIndex("tunnel_observations_pair_uq").on(table.fromNodeId, table.peerPublicKey),
    index("tunnel_observations_network_idx").on(table.networkId, table.createdAt),
  ],
);
