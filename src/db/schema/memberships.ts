import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { groups } from "./groups";
import { users } from "./users";

export const GROUP_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

export const memberships = sqliteTable(
  "memberships",
  {
    groupId: text()
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text({ enum: GROUP_ROLES }).notNull(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index("memberships_user_idx").on(table.userId)],
);
