import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** A password-reset token: mailed once, only its SHA-256 kept, short-lived and single use. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text().notNull().unique(),
    createdAt: text().notNull(),
    expiresAt: text().notNull(),
    /** Set when the token is consumed, or when a newer request supersedes it. */
    usedAt: text(),
  },
  (table) => [index("password_resets_user_idx").on(table.userId)],
);
