import { index, primaryKey, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import { groups } from "./groups";
import { GROUP_ROLES } from "./memberships";
import { users } from "./users";

/**
 * The identity provider's groups as its SCIM client pushes them (DESIGN.md "Identity from the organisation's
 * directory"). They are not our groups: a mapping (idpGroupMappings) turns membership of one into a role in
 * one of ours.
 */
export const idpGroups = sqliteTable("idp_groups", {
  id: text().primaryKey(),
  displayName: text().notNull().unique(),
  externalId: text(),
  createdAt: text().notNull(),
  updatedAt: text().notNull(),
});

export const idpGroupMembers = sqliteTable(
  "idp_group_members",
  {
    idpGroupId: text()
      .notNull()
      .references(() => idpGroups.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.idpGroupId, table.userId] }), index("idp_group_members_user_idx").on(table.userId)],
);

/**
 * The IdP groups a person's last OpenID Connect sign-in named (the ID token's groups claim, OIDC_GROUPS_CLAIM):
 * replaced at every sign-in that carries the claim, and read beside SCIM's members wherever IdP groups count
 * (mappings, `idp:` selectors). For providers without SCIM, or before it syncs.
 */
export const oidcGroupClaims = sqliteTable(
  "oidc_group_claims",
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    createdAt: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.name] }), index("oidc_group_claims_name_idx").on(table.name)],
);

/**
 * An IdP group (matched by its displayName or externalId, or an OIDC groups-claim value) onto one of our
 * groups with a role. Named by text, not by row: a mapping may come before the directory pushes the group.
 */
export const idpGroupMappings = sqliteTable(
  "idp_group_mappings",
  {
    id: text().primaryKey(),
    idpGroup: text().notNull(),
    groupId: text()
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    role: text({ enum: GROUP_ROLES }).notNull(),
    createdAt: text().notNull(),
  },
  (table) => [unique("idp_group_mappings_pair").on(table.idpGroup, table.groupId), index("idp_group_mappings_group_idx").on(table.groupId)],
);
