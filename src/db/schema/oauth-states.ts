import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * An OAuth sign-in in flight. Only the state's hash is kept; the PKCE verifier and the OIDC nonce are
 * derived from the state with an HMAC keyed by TOKEN_SECRET, so nothing secret sits in the table.
 */
export const oauthStates = sqliteTable("oauth_states", {
  id: text().primaryKey(),
  stateHash: text().notNull().unique(),
  provider: text().notNull(),
  createdAt: text().notNull(),
  expiresAt: text().notNull(),
  usedAt: text(),
});
