import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";
import { users } from "./users";

/** A managed-client device: a node of one network plus who owns it and how it authenticates. */
export const devices = sqliteTable(
  "devices",
  {
    id: text().primaryKey(),
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    nodeId: text().notNull(),
    /** The owner; null for devices enrolled headless with an enrolment key (group admins manage them). */
    userId: text().references(() => users.id, { onDelete: "cascade" }),
    enrolmentKeyId: text(),
    platform: text().notNull().default(""),
    clientVersion: text().notNull().default(""),
    /** SHA-256 of the device credential (`dvc_…`), the bearer a device uses for its own routes. */
    credentialHash: text().notNull().unique(),
    /** Before issue 30 (now the network object's hot state, imported once): the endpoint the device last reported for itself. */
    reportedEndpoint: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [
    uniqueIndex("devices_node_uq").on(table.nodeId),
    index("devices_user_idx").on(table.userId, table.createdAt),
    index("devices_network_idx").on(table.networkId, table.createdAt),
  ],
);
