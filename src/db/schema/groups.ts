import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const groups = sqliteTable("groups", {
  id: text().primaryKey(),
  name: text().notNull(),
  createdAt: text().notNull(),
  updatedAt: text().notNull(),
});
