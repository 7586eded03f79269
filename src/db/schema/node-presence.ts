import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { nodes } from "./nodes";

export const PRESENCE_STATES = ["online", "offline"] as const;

/**
 * What the scheduled detector last concluded about a node, so each transition is announced once.
 * Written only by src/scheduled (never by request handlers).
 */
export const nodePresence = sqliteTable(
  "node_presence",
  {
    nodeId: text()
      .primaryKey()
      .references(() => nodes.id, { onDelete: "cascade" }),
    state: text({ enum: PRESENCE_STATES }).notNull(),
    changedAt: text().notNull(),
    /** When the detector first saw the node online and behind its network's routing revision; null otherwise. */
    behindSince: text(),
    /** The desired revision config.drift was last announced for (once per node and revision). */
    driftNotifiedRevision: integer(),
    updatedAt: text().notNull(),
  },
  (table) => [index("node_presence_behind_idx").on(table.behindSince)],
);
