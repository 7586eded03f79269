import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { groups } from "./groups";
import { users } from "./users";

export const GROUP_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];
/** manual: added by a person (a member call, an invite); idp: given by the directory (services/scim/directory-roles.ts). */
export const MEMBERSHIP_SOURCES = ["manual", "idp"] as const;
export type MembershipSource = (typeof MEMBERSHIP_SOURCES)[number];

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
    /** The directory adds, changes and removes only its own (`idp`) memberships. */
    source: text({ enum: MEMBERSHIP_SOURCES }).notNull().default("manual"),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index("memberships_user_idx").on(table.userId)],
);
