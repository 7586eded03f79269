import { check, index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { gateways } from "./gateways";
import { groups } from "./groups";
import { regions } from "./regions";
import { users } from "./users";

/**
 * Which inventory gateways a group may put gateway nodes on (docs/identity.md, "Gateway assignment"):
 * platform admins assign one gateway, or a whole region (every gateway of it, present and future), to a
 * group. Exactly one of gatewayId / regionId is set. A gateway or region leaves with its assignments (only
 * a gateway no node runs on, and only an empty region, can be deleted); a group too.
 */
export const gatewayAssignments = sqliteTable(
  "gateway_assignments",
  {
    id: text().primaryKey(),
    groupId: text()
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    gatewayId: text().references(() => gateways.id, { onDelete: "cascade" }),
    regionId: text().references(() => regions.id, { onDelete: "cascade" }),
    /** The platform admin who assigned it; null when they were deleted, or for rows the upgrade back-filled. */
    createdBy: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: text().notNull(),
  },
  (table) => [
    check("gateway_assignments_one_target", sql`(${table.gatewayId} is null) <> (${table.regionId} is null)`),
    // NULLs are distinct in SQLite's unique indexes: a gateway row and a region row never collide.
    uniqueIndex("gateway_assignments_group_gateway_unique").on(table.groupId, table.gatewayId),
    uniqueIndex("gateway_assignments_group_region_unique").on(table.groupId, table.regionId),
    index("gateway_assignments_gateway_idx").on(table.gatewayId),
    index("gateway_assignments_region_idx").on(table.regionId),
  ],
);
