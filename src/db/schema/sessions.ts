import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** A sign-in: the family of refresh tokens that descend from one login. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text().notNull(),
    /** Absolute end of the session, whatever the refresh activity. */
    expiresAt: text().notNull(),
    revokedAt: text(),
    revokedReason: text(),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);
