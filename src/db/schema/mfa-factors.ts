import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** A user's TOTP factor: pending until activated with a first code. */
export const mfaFactors = sqliteTable("mfa_factors", {
  userId: text()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** AES-GCM ciphertext of the 160-bit secret (key derived from TOKEN_SECRET), bound to the user id. */
  secretCiphertext: text().notNull(),
  activatedAt: text(),
  /** The newest 30 s step a code was accepted for: codes of this step or older never work again. */
  lastUsedStep: integer(),
  createdAt: text().notNull(),
  updatedAt: text().notNull(),
});
