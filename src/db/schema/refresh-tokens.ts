import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sessions } from "./sessions";

export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: text().primaryKey(),
    sessionId: text()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text().notNull().unique(),
    parentId: text(),
    createdAt: text().notNull(),
    /** Idle expiry: an unused token dies at this time. */
    expiresAt: text().notNull(),
    /** Epoch milliseconds of the rotation that consumed this token. */
    usedAt: integer(),
  },
  (table) => [index("refresh_tokens_session_idx").on(table.sessionId)],
);
