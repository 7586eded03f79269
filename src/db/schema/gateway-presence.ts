import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { gateways } from "./gateways";

export const GATEWAY_PRESENCE_STATES = ["up", "down"] as const;

/** The detector's last verdict on an inventory gateway (docs/notifications.md, "Gateway down"). */
export const gatewayPresence = sqliteTable("gateway_presence", {
  gatewayId: text()
    .primaryKey()
    .references(() => gateways.id, { onDelete: "cascade" }),
  state: text({ enum: GATEWAY_PRESENCE_STATES }).notNull(),
  changedAt: text().notNull(),
  updatedAt: text().notNull(),
});
