import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * The bearer Prometheus scrapes GET /metrics with (`mtk_…`), stored only as a hash. At most one is live:
 * issuing a new one revokes the old in the same batch; revoked rows stay for the audit trail's sake.
 */
export const metricsTokens = sqliteTable(
  "metrics_tokens",
  {
    id: text().primaryKey(),
    tokenHash: text().notNull().unique(),
    createdBy: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: text().notNull(),
    revokedAt: text(),
  },
  (table) => [index("metrics_tokens_revoked_idx").on(table.revokedAt)],
);

/**
 * Monotonic counters the Worker keeps for /metrics where no other table records the event (a failed
 * login writes nothing else). One row per counter and label value, incremented with an upsert.
 */
export const metricCounters = sqliteTable("metric_counters", {
  /** "<counter>:<label value>", e.g. "login_failures:password". */
  key: text().primaryKey(),
  value: integer().notNull().default(0),
  updatedAt: text().notNull(),
});
