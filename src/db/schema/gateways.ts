import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { regions } from "./regions";

export const GATEWAY_STATUSES = ["active", "draining", "disabled"] as const;
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number];
/** What a region's gateway-manager reports; the API, the schema and GET /metrics share this one list. */
export const GATEWAY_HEALTH = ["unknown", "healthy", "degraded", "down"] as const;

/** Shared runtime inventory: a gateway serves networks through nodes with the gateway role. */
export const gateways = sqliteTable(
  "gateways",
  {
    id: text().primaryKey(),
    regionId: text()
      .notNull()
      .references(() => regions.id),
    name: text().notNull().unique(),
    /** Public host the gateway is reached at, for operators; each gateway node carries its own endpoint. */
    publicHost: text(),
    /** Only `active` gateways are eligible for new routing-policy hops. */
    status: text({ enum: GATEWAY_STATUSES }).notNull().default("active"),
    capacity: integer(),
    /** What the region's gateway-manager last reported. */
    health: text({ enum: GATEWAY_HEALTH }).notNull().default("unknown"),
    healthCheckedAt: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index("gateways_region_idx").on(table.regionId)],
);
