import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { networks } from "./networks";

/** Ages sorted into cumulative buckets (services/metrics/age-buckets.ts): `le[i]` counts those at most `buckets[i]` s old. */
export interface StoredAgeHistogram {
  aged: number;
  ageSum: number;
  le: number[];
}

/**
 * What /metrics needs of a network's hot state, one row per network, written by the network's object on its
 * presence check only when a figure changed (objects/network/hot/presence-outbox.ts): an outbox from the
 * objects, so a scrape across networks stays one D1 read. Ages are as of `computedAt` (one check, about a
 * minute, old at most while the network has a device online). Device nodes and tunnels only: gateway nodes'
 * agents still write D1's node columns, which the scrape reads beside these.
 */
export const networkHotStats = sqliteTable("network_hot_stats", {
  networkId: text()
    .primaryKey()
    .references(() => networks.id, { onDelete: "cascade" }),
  nodesOnline: integer().notNull(),
  nodesBehind: integer().notNull(),
  nodesUnreported: integer().notNull(),
  heartbeatAges: text({ mode: "json" }).$type<StoredAgeHistogram>().notNull(),
  tunnelEnds: integer().notNull(),
  handshakeAges: text({ mode: "json" }).$type<StoredAgeHistogram>().notNull(),
  directPairs: integer().notNull(),
  computedAt: text().notNull(),
});
