import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const regions = sqliteTable("regions", {
  id: text().primaryKey(),
  name: text().notNull().unique(),
  description: text().notNull().default(""),
  createdAt: text().notNull(),
  updatedAt: text().notNull(),
});
