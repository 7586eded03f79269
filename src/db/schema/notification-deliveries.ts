import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { notificationChannels } from "./notification-channels";
import { notificationEvents } from "./notification-events";
import { users } from "./users";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * The delivery queue: one row per (event, channel). A processor claims a due row by moving
 * nextAttemptAt forward (a lease) in one UPDATE, so overlapping cron runs never send it twice at once.
 */
export const notificationDeliveries = sqliteTable(
  "notification_deliveries",
  {
    id: text().primaryKey(),
    eventId: text()
      .notNull()
      .references(() => notificationEvents.id, { onDelete: "cascade" }),
    channelId: text()
      .notNull()
      .references(() => notificationChannels.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text({ enum: DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer().notNull().default(0),
    /** When the next attempt is due (pending); null once delivered or failed. */
    nextAttemptAt: text(),
    lastAttemptAt: text(),
    /** HTTP status of the last webhook answer; null for email or when no answer came. */
    lastStatusCode: integer(),
    lastError: text(),
    deliveredAt: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [
    index("notification_deliveries_due_idx").on(table.status, table.nextAttemptAt),
    index("notification_deliveries_user_idx").on(table.userId, table.createdAt),
    index("notification_deliveries_channel_idx").on(table.channelId, table.createdAt),
    index("notification_deliveries_event_idx").on(table.eventId),
  ],
);
