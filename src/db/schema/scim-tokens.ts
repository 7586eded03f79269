import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * Bearer tokens an identity provider's SCIM client presents at /api/v1/scim/v2 (docs/identity.md, DESIGN.md
 * "Identity from the organisation's directory"): made by platform admins, shown once (`scim_…`), stored only as a
 * hash, good for the SCIM routes and nothing else. Revoking one refuses it at once.
 */
export const scimTokens = sqliteTable(
  "scim_tokens",
  {
    id: text().primaryKey(),
    /** Names the directory that uses it; SCIM changes are audited as `scim:<name>`. */
    name: text().notNull().unique(),
    tokenHash: text().notNull().unique(),
    createdBy: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: text().notNull(),
    lastUsedAt: text(),
    revokedAt: text(),
  },
  (table) => [index("scim_tokens_created_idx").on(table.createdAt)],
);
