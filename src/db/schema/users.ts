import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: text().primaryKey(),
  /** Stored lower-cased and trimmed: sign-in and uniqueness ignore case. */
  email: text().notNull().unique(),
  name: text().notNull().default(""),
  /** `$scrypt$ln=14,r=8,p=5$salt$hash`; null for accounts that only sign in through OAuth. */
  passwordHash: text(),
  platformRole: text({ enum: ["admin", "user"] })
    .notNull()
    .default("user"),
  disabledAt: text(),
  createdAt: text().notNull(),
  updatedAt: text().notNull(),
});
