import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { groups } from "./groups";

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
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index("networks_group_idx").on(table.groupId, table.createdAt)],
);
