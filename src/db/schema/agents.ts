import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { gateways } from "./gateways";
import { regions } from "./regions";
import { users } from "./users";

export const AGENT_KINDS = ["gateway-manager", "gateway-daemon"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/**
 * A gateway-manager manages the gateways of one region; a gateway-daemon runs the gateway nodes of one
 * gateway. Each authenticates with its own credential (`agc_…`), stored only as a hash.
 */
export const agents = sqliteTable(
  "agents",
  {
    id: text().primaryKey(),
    kind: text({ enum: AGENT_KINDS }).notNull(),
    name: text().notNull(),
    regionId: text().references(() => regions.id),
    gatewayId: text().references(() => gateways.id),
    version: text().notNull().default(""),
    credentialHash: text().notNull().unique(),
    revokedAt: text(),
    lastSeenAt: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index("agents_created_idx").on(table.createdAt)],
);

/** Single-use tokens a platform admin issues so an agent can enrol and receive its credential. */
export const agentEnrolmentTokens = sqliteTable("agent_enrolment_tokens", {
  id: text().primaryKey(),
  kind: text({ enum: AGENT_KINDS }).notNull(),
  regionId: text().references(() => regions.id),
  gatewayId: text().references(() => gateways.id),
  tokenHash: text().notNull().unique(),
  createdBy: text().references(() => users.id, { onDelete: "set null" }),
  expiresAt: text().notNull(),
  usedAt: text(),
  usedByAgentId: text(),
  createdAt: text().notNull(),
});
