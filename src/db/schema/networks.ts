import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { groups } from "./groups";

export const ACCESS_MODES = ["open", "policy"] as const;

export const networks = sqliteTable(
  "networks",
  {
    id: text().primaryKey(),
    groupId: text()
      .notNull()
      .references(() => groups.id),
    name: text().notNull(),
    /** Normalised CIDR (network address, canonical form). */
    cidr: text().notNull(),
    dnsDomain: text().notNull(),
    /** Bumped in the same batch as every routing-relevant write (nodes, policies). */
    routingRevision: integer().notNull().default(0),
    /** Bumped in the same batch as every DNS record write. */
    dnsRevision: integer().notNull().default(0),
    /** "open": every node may reach every node (the spec's behaviour); "policy": only the access policy's rules allow (docs/access.md). */
    accessMode: text({ enum: ACCESS_MODES }).notNull().default("open"),
    /** The access policy in force: its revision in access_policy_revisions; 0 before the first PUT. */
    accessRevision: integer().notNull().default(0),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index("networks_group_idx").on(table.groupId, table.createdAt)],
);
