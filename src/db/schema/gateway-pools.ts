import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";
import { nodes } from "./nodes";

/** One member of a gateway pool: lower priority is preferred; a drained member is never chosen. */
export interface PoolMember {
  nodeId: string;
  priority: number;
  drained: boolean;
}

/**
 * A hop of a gateway path that is a set of gateway nodes (docs/routing.md, "Gateway pools and failover").
 * A policy names the pool's id in its gatewayPath; the topology routes through `activeNodeId`, which only
 * the network's writer changes (pool writes, drains, failovers), each change with a routing revision bump.
 */
export const gatewayPools = sqliteTable(
  "gateway_pools",
  {
    id: text().primaryKey(),
    networkId: text()
      .notNull()
      .references(() => networks.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** A member preferred by priority takes traffic back when healthy again (otherwise the active one keeps it). */
    preempt: integer({ mode: "boolean" }).notNull().default(false),
    /** Members in priority order; a node belongs to at most one pool (checked by the writer). */
    members: text({ mode: "json" }).$type<PoolMember[]>().notNull(),
    /** The member carrying traffic. */
    activeNodeId: text().notNull(),
    lastFailoverAt: text(),
    lastFailoverFrom: text(),
    lastFailoverTo: text(),
    lastFailoverReason: text(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [
    uniqueIndex("gateway_pools_network_name_uq").on(table.networkId, table.name),
    index("gateway_pools_network_created_idx").on(table.networkId, table.createdAt),
  ],
);

/**
 * Forwarding probes across a gateway node, as the node before it on a path reports them: the run of
 * consecutive failures (0 after a success). Written by agent reports, outside the writer; read by the
 * writer's pool evaluation. A row goes with its node.
 */
export const forwardingProbes = sqliteTable("forwarding_probes", {
  nodeId: text()
    .primaryKey()
    .references(() => nodes.id, { onDelete: "cascade" }),
  networkId: text().notNull(),
  failStreak: integer().notNull().default(0),
  checkedAt: text().notNull(),
  /** The node whose agent reported the run: it counts only while that node is the one asked to probe. */
  proberNodeId: text(),
});
