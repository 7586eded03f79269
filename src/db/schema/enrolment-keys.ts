import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";
import { users } from "./users";

/** Headless enrolment: a secret scoped to one network, with expiry and a usage limit, revocable. */
export const enrolmentKeys = sqliteTable(
  "enrolment_keys",
  {
    id: text().primaryKey(),
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** SHA-256 of the key (`ek_…`); the key itself is shown once, at creation. */
    keyHash: text().notNull().unique(),
    createdBy: text().references(() => users.id, { onDelete: "set null" }),
    expiresAt: text().notNull(),
    usageLimit: integer().notNull(),
    usedCount: integer().notNull().default(0),
    /** Tags the devices this key enrols get (a member cannot tag their own device; the key's maker can). */
    tags: text({ mode: "json" }).$type<string[]>().notNull().default([]),
    revokedAt: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index("enrolment_keys_network_idx").on(table.networkId, table.createdAt)],
);
