import { sql } from "drizzle-orm";
import { check, integer, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * Never holds a row. A write made on someone's authority puts, first in its batch, an insert of `held = 0`
 * here that selects a row only when that authority no longer holds; the CHECK then fails and D1 rolls the
 * whole batch back (objects/network/commit.ts; docs/architecture.md, "Authority inside the batch").
 */
export const authorityGuard = sqliteTable("authority_guard", { held: integer().notNull() }, (table) => [
  check("authority_held", sql`${table.held} = 1`),
]);
