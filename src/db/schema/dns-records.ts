import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";

export const dnsRecords = sqliteTable(
  "dns_records",
  {
    id: text().primaryKey(),
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    /** Relative to the network's dnsDomain; "@" is the apex. Normalised lower case. */
    name: text().notNull(),
    type: text({ enum: ["A", "AAAA", "CNAME", "TXT"] }).notNull(),
    /** Canonical value (compact IPv6, lower-case host names, raw TXT text). */
    value: text().notNull(),
    ttl: integer().notNull(),
    /** The network DNS revision at which the record last changed. */
    revision: integer().notNull(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index("dns_records_network_created_idx").on(table.networkId, table.createdAt)],
);
