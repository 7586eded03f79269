import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** Ten single-use MFA recovery codes per activation, stored as SHA-256 only. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text().notNull(),
    createdAt: text().notNull(),
    usedAt: text(),
  },
  (table) => [index("recovery_codes_user_idx").on(table.userId, table.codeHash)],
);
