import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable(
  "users",
  {
    id: text().primaryKey(),
    /** Stored lower-cased and trimmed: sign-in and uniqueness ignore case. */
    email: text().notNull().unique(),
    name: text().notNull().default(""),
    /** `$scrypt$ln=14,r=8,p=5$salt$hash`; null for accounts that only sign in through OAuth. */
    passwordHash: text(),
    platformRole: text({ enum: ["admin", "user"] })
      .notNull()
      .default("user"),
    disabledAt: text(),
    /** The identity provider's own id for the person (SCIM `externalId`); null for people typed in by hand. */
    externalId: text(),
    /** SCIM `userName` as the directory sent it when it is not the sign-in email (an Entra UPN); else null. */
    directoryUserName: text().unique(),
    /** SCIM `name.givenName` / `name.familyName`, kept as the directory sent them (`name` is what the API shows). */
    givenName: text(),
    familyName: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index("users_external_id_idx").on(table.externalId)],
);
