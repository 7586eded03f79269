import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * The second step of a sign-in (the `mfaToken`): an opaque stored challenge rather than a JWT, so its
 * tries can be counted (5 per challenge) and it can be consumed exactly once.
 */
export const mfaChallenges = sqliteTable("mfa_challenges", {
  id: text().primaryKey(),
  userId: text()
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text().notNull().unique(),
  attempts: integer().notNull().default(0),
  createdAt: text().notNull(),
  expiresAt: text().notNull(),
  usedAt: text(),
});
