import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One row (id "platform"): the platform settings that override wrangler [vars] where set. */
export const adminSettings = sqliteTable("admin_settings", {
  id: text().primaryKey(),
  value: text({ mode: "json" }).$type<Record<string, unknown>>().notNull(),
  updatedBy: text(),
  updatedAt: text().notNull(),
});
