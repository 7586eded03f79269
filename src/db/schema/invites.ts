import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { groups } from "./groups";
import { GROUP_ROLES } from "./memberships";
import { users } from "./users";

/** An invitation of an email address into a group with a role; the mailed token is kept only as SHA-256. */
export const invites = sqliteTable(
  "invites",
  {
    id: text().primaryKey(),
    groupId: text()
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    /** Lower-cased, like users.email. */
    email: text().notNull(),
    role: text({ enum: GROUP_ROLES }).notNull(),
    tokenHash: text().notNull().unique(),
    invitedBy: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: text().notNull(),
    expiresAt: text().notNull(),
    acceptedAt: text(),
    acceptedBy: text().references(() => users.id, { onDelete: "set null" }),
    revokedAt: text(),
  },
  (table) => [index("invites_group_idx").on(table.groupId, table.createdAt), index("invites_email_idx").on(table.email)],
);
