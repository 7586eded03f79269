import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";

export const ROUTING_POLICY_TYPES = ["via_gateway"] as const;

export const routingPolicies = sqliteTable(
  "routing_policies",
  {
    id: text().primaryKey(),
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    name: text().notNull(),
    type: text({ enum: ROUTING_POLICY_TYPES }).notNull(),
    destinationCidr: text().notNull(),
    /** Ordered gateway node ids. */
    gatewayPath: text({ mode: "json" }).$type<string[]>().notNull(),
    /** The network routing revision at which this policy last changed. */
    revision: integer().notNull(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [
    uniqueIndex("routing_policies_network_name_uq").on(table.networkId, table.name),
    index("routing_policies_network_created_idx").on(table.networkId, table.createdAt),
  ],
);
