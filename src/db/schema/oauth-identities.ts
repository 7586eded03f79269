import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** A provider account linked to a user, keyed on (provider, subject): never on the email, which can change. */
export const oauthIdentities = sqliteTable(
  "oauth_identities",
  {
    provider: text().notNull(),
    subject: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The verified email that linked it, for the record. */
    email: text().notNull(),
    createdAt: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.subject] }), index("oauth_identities_user_idx").on(table.userId)],
);
