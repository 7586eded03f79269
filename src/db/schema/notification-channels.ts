import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

export const CHANNEL_TYPES = ["email", "webhook"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** Where one account wants notifications sent, and which event types it wants there (docs/notifications.md). */
export const notificationChannels = sqliteTable(
  "notification_channels",
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text({ enum: CHANNEL_TYPES }).notNull(),
    /** An email address (email) or an https URL (webhook). */
    target: text().notNull(),
    /** Subscribed event types, e.g. ["node.offline", "config.drift"]. */
    events: text({ mode: "json" }).$type<string[]>().notNull(),
    enabled: integer({ mode: "boolean" }).notNull().default(true),
    /** Webhook signing secret sealed with TOKEN_SECRET (secret-box); shown in clear only when created or rotated. */
    secretSealed: text(),
    secretRotatedAt: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index("notification_channels_user_idx").on(table.userId, table.createdAt)],
);
