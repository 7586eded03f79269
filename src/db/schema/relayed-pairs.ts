import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";
import { nodes } from "./nodes";

/**
 * Pairs of nodes that found no direct path and were moved onto a relay (docs/nat.md), and what the server
 * remembers of them after moving them back: `relayNodeId` null means direct again. `nodeA` < `nodeB` by id.
 * Only the network's writer writes here; each move bumps the routing revision in the same batch.
 */
export const relayedPairs = sqliteTable(
  "relayed_pairs",
  {
    nodeA: text()
      .notNull()
      .references(() => nodes.id, { onDelete: "cascade" }),
    nodeB: text()
      .notNull()
      .references(() => nodes.id, { onDelete: "cascade" }),
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    relayNodeId: text().references(() => nodes.id, { onDelete: "set null" }),
    /** When the pair last moved (onto the relay, or back to direct). */
    movedAt: text().notNull(),
    /** How long a relayed pair stays before direct is taken again; doubles after each move back that failed. */
    holdSeconds: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.nodeA, table.nodeB] }), index("relayed_pairs_network_idx").on(table.networkId)],
);
