import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";

/** Something that happened, once; deliveries fan it out to the channels that asked for it. */
export const notificationEvents = sqliteTable(
  "notification_events",
  {
    id: text().primaryKey(),
    type: text().notNull(),
    /** Null only for channel test events, which belong to no network. */
    networkId: text().references(() => networks.id, { onDelete: "cascade" }),
    groupId: text(),
    /** The node, gateway, policy or device the event is about. */
    subjectId: text(),
    data: text({ mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** Makes emission idempotent: two overlapping detection runs insert one event (e.g. config.drift:<node>:<revision>). */
    dedupeKey: text(),
    createdAt: text().notNull(),
  },
  (table) => [
    uniqueIndex("notification_events_dedupe_uq").on(table.dedupeKey),
    index("notification_events_network_idx").on(table.networkId, table.createdAt),
    index("notification_events_created_idx").on(table.createdAt),
  ],
);
