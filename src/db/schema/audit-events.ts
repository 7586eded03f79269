import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** system: a change the control plane made on its own clock (a gateway failover); scim: a directory's SCIM client. */
export const ACTOR_TYPES = ["user", "device", "agent", "anonymous", "system", "scim"] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/**
 * One row per successful mutation (docs/audit.md). No foreign keys on purpose: the record must outlive
 * the user, group or network it names. Never holds request or response bodies (they carry secrets).
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: text().primaryKey(),
    /** When the request was answered ("at" in the API). */
    createdAt: text().notNull(),
    actorType: text({ enum: ACTOR_TYPES }).notNull(),
    actorId: text(),
    method: text().notNull(),
    /** The route pattern, e.g. /routing-policies/:id (never the raw path with its query string). */
    route: text().notNull(),
    /** Path parameters the request addressed ("before" ids). */
    params: text({ mode: "json" }).$type<Record<string, string>>().notNull(),
    /** The response's id when it has one, else the last path parameter ("after" id). */
    resourceId: text(),
    groupId: text(),
    networkId: text(),
    status: integer().notNull(),
    requestId: text().notNull(),
  },
  (table) => [
    index("audit_events_created_idx").on(table.createdAt, table.id),
    index("audit_events_group_idx").on(table.groupId, table.createdAt),
    index("audit_events_network_idx").on(table.networkId, table.createdAt),
    index("audit_events_actor_idx").on(table.actorId, table.createdAt),
  ],
);
