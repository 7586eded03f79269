import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";

/**
 * Every revision of a network's access policy, kept: the one in force is networks.access_revision, and a
 * rollback PUTs an earlier revision's document anew (a new revision, audited like any change).
 */
export const accessPolicyRevisions = sqliteTable(
  "access_policy_revisions",
  {
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    revision: integer().notNull(),
    /** The document's rules and tests as the API carries them (docs/access.md). */
    rules: text({ mode: "json" }).$type<unknown[]>().notNull(),
    tests: text({ mode: "json" }).$type<unknown[]>().notNull(),
    /** The user who wrote it (kept as text: the revision outlives the account). */
    createdBy: text(),
    createdAt: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.networkId, table.revision] })],
);
