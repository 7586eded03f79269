import { eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { withHotStats } from "./fleet-hot-stats";
import {
  devices,
  forwardingProbes,
  gatewayPools,
  gatewayPresence,
  gateways,
  metricCounters,
  networkHotStats,
  networks,
  nodePresence,
  nodes,
  notificationDeliveries,
  relayedPairs,
  routingPolicies,
  tunnelObservations,
} from "../../db/schema";

import { HANDSHAKE_AGE_BUCKETS, HEARTBEAT_AGE_BUCKETS } from "./age-buckets";

export { HANDSHAKE_AGE_BUCKETS, HEARTBEAT_AGE_BUCKETS };

const ago = (now: Date, seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
/**
 * An aggregate as a number, under its own column name: D1 answers rows keyed by column name, and two
 * unnamed aggregates with the same text (bucket cutoffs are bound parameters) would collapse into one.
 */
const int = (expression: SQL, alias: string) => sql<number>`coalesce(${expression}, 0)`.mapWith(Number).as(alias);

/**
 * Columns of an aggregate that sort `column`'s timestamps into cumulative age buckets: `le<i>` counts the
 * timestamps at most `buckets[i]` seconds old (ISO strings of one format sort as time), `aged` those
 * present, `ageSum` their ages in seconds. Nulls (never seen, no handshake) are in none of them.
 */
function ageColumns(column: SQLiteColumn | SQL, buckets: readonly number[], now: Date) {
  const fields: Record<string, SQL.Aliased<number>> = {
    aged: int(sql`count(${column})`, "aged"),
    ageSum: sql<number>`coalesce(sum((julianday(${now.toISOString()}) - julianday(${column})) * 86400.0), 0)`.mapWith(Number).as("age_sum"),
  };
  buckets.forEach((le, index) => {
    fields[`le${index}`] = int(sql`sum(case when ${column} >= ${ago(now, le)} then 1 else 0 end)`, `le${index}`);
  });
  return fields;
}

/** The le<i> columns back into cumulative bucket counts. */
export const bucketsOf = (row: Record<string, unknown>, buckets: readonly number[]) =>
  buckets.map((le, index) => ({ le, count: Number(row[`le${index}`] ?? 0) }));

/** The node ids of every pool's members, for an IN (subquery): no bound parameter per member. */
const poolMemberIds = sql`(select json_extract(member.value, '$.nodeId') from ${gatewayPools}, json_each(${gatewayPools.members}) as member)`;

/**
 * Every read a scrape makes, as statements of one D1 batch (one round trip). Each is an aggregate over
 * a whole table (GROUP BY network, status...) or a small inventory table: the number of statements
 * never depends on the fleet, only the rows they read do (docs/metrics.md, "Cost").
 */
export function fleetStatements(db: Db, now: Date) {
  return [
    db
      .select({
        id: networks.id,
        name: networks.name,
        groupId: networks.groupId,
        routingRevision: networks.routingRevision,
        updatedAt: networks.updatedAt,
        nodes: int(sql`count(${nodes.id})`, "nodes"),
        gatewayNodes: int(sql`sum(${nodes.isGateway})`, "gateway_nodes"),
        // Device nodes' presence and revisions are their network object's (network_hot_stats, merged by readFleet);
        // D1 counts the others, and ages the device nodes the object does not hold online (their last beat is
        // D1's last_seen_at: the object writes it with each transition).
        online: int(sql`sum(case when ${nodePresence.state} = 'online' and ${nodes.deviceId} is null then 1 else 0 end)`, "online"),
        behind: int(
          sql`sum(case when ${nodes.deviceId} is null and ${nodes.appliedRoutingRevision} < ${networks.routingRevision} then 1 else 0 end)`,
          "behind",
        ),
        unreported: int(
          sql`sum(case when ${nodes.id} is not null and ${nodes.deviceId} is null and ${nodes.appliedRoutingRevision} is null then 1 else 0 end)`,
          "unreported",
        ),
        ...ageColumns(
          sql`case when ${nodes.deviceId} is not null and ${nodePresence.state} = 'online' then null else ${nodes.lastSeenAt} end`,
          HEARTBEAT_AGE_BUCKETS,
          now,
        ),
        // One row per network (or none): bare columns of the group.
        hot: {
          nodesOnline: networkHotStats.nodesOnline,
          nodesBehind: networkHotStats.nodesBehind,
          nodesUnreported: networkHotStats.nodesUnreported,
          heartbeatAges: networkHotStats.heartbeatAges,
          tunnelEnds: networkHotStats.tunnelEnds,
          handshakeAges: networkHotStats.handshakeAges,
          directPairs: networkHotStats.directPairs,
        },
      })
      .from(networks)
      .leftJoin(nodes, eq(nodes.networkId, networks.id))
      .leftJoin(nodePresence, eq(nodePresence.nodeId, nodes.id))
      .leftJoin(networkHotStats, eq(networkHotStats.networkId, networks.id))
      .groupBy(networks.id),
    db
      .select({ networkId: devices.networkId, devices: int(sql`count(*)`, "devices") })
      .from(devices)
      .groupBy(devices.networkId),
    db
      .select({
        networkId: tunnelObservations.networkId,
        ends: int(sql`count(*)`, "ends"),
        ...ageColumns(tunnelObservations.lastHandshakeAt, HANDSHAKE_AGE_BUCKETS, now),
      })
      .from(tunnelObservations)
      .groupBy(tunnelObservations.networkId),
    db
      .select({
        id: gateways.id,
        name: gateways.name,
        regionId: gateways.regionId,
        status: gateways.status,
        health: gateways.health,
        presence: gatewayPresence.state,
      })
      .from(gateways)
      .leftJoin(gatewayPresence, eq(gatewayPresence.gatewayId, gateways.id)),
    db.select().from(gatewayPools),
    db
      .select({
        id: nodes.id,
        lastSeenAt: nodes.lastSeenAt,
        probeFailStreak: forwardingProbes.failStreak,
        proberNodeId: forwardingProbes.proberNodeId,
      })
      .from(nodes)
      .leftJoin(forwardingProbes, eq(forwardingProbes.nodeId, nodes.id))
      .where(inArray(nodes.id, poolMemberIds)),
    // Who is asked to probe across a pool's active member follows from the policies of networks with pools.
    db
      .select()
      .from(routingPolicies)
      .where(inArray(routingPolicies.networkId, sql`(select ${gatewayPools.networkId} from ${gatewayPools})`)),
    db
      .select({ status: notificationDeliveries.status, deliveries: int(sql`count(*)`, "deliveries") })
      .from(notificationDeliveries)
      .groupBy(notificationDeliveries.status),
    db.select({ key: metricCounters.key, value: metricCounters.value }).from(metricCounters),
    ...peerPathStatements(db, now),
  ] as const;
}

/**
 * Pairs by path (docs/nat.md): relayed pairs as the writer moved them; direct pairs, those with a handshake in
 * WireGuard's 180 s reported by either end and not on a relay. A pair is its two node ids in order.
 */
function peerPathStatements(db: Db, now: Date) {
  const low = sql`min(${tunnelObservations.fromNodeId}, ${nodes.id})`;
  const high = sql`max(${tunnelObservations.fromNodeId}, ${nodes.id})`;
  return [
    db
      .select({ networkId: relayedPairs.networkId, pairs: int(sql`count(*)`, "pairs") })
      .from(relayedPairs)
      // Pairs the topology still carries: the relay still relays, both ends still only dial out and are no
      // gateways (core/routing/relays.ts; a pair the access policy denies is the one case only the writer knows).
      .where(
        sql`${relayedPairs.relayNodeId} is not null
          and exists (select 1 from ${nodes} where ${nodes.id} = ${relayedPairs.relayNodeId} and ${nodes.relay} = 1 and ${nodes.isGateway} = 1)
          and not exists (select 1 from ${nodes} where ${nodes.id} in (${relayedPairs.nodeA}, ${relayedPairs.nodeB}) and (${nodes.isGateway} = 1 or ${nodes.endpoint} is not null))`,
      )
      .groupBy(relayedPairs.networkId),
    db
      .select({ networkId: tunnelObservations.networkId, pairs: int(sql`count(distinct ${low} || ' ' || ${high})`, "pairs") })
      .from(tunnelObservations)
      // The key index is partial (keyless gateway nodes hold ''): the condition is repeated so SQLite uses it.
      .innerJoin(
        nodes,
        sql`${nodes.networkId} = ${tunnelObservations.networkId} and ${nodes.publicKey} = ${tunnelObservations.peerPublicKey} and ${nodes.publicKey} <> ''`,
      )
      .where(
        sql`${tunnelObservations.lastHandshakeAt} >= ${ago(now, 180)} and not exists (select 1 from ${relayedPairs} where ${relayedPairs.nodeA} = ${low} and ${relayedPairs.nodeB} = ${high} and ${relayedPairs.relayNodeId} is not null)`,
      )
      .groupBy(tunnelObservations.networkId),
  ] as const;
}

/** Every read of a scrape, one D1 batch; what the networks' objects wrote (network_hot_stats) merged in. */
export async function readFleet(db: Db, now: Date) {
  const [
    networkRows,
    deviceRows,
    tunnelRows,
    gatewayRows,
    pools,
    poolVitals,
    poolPolicies,
    deliveryRows,
    counterRows,
    relayedRows,
    directRows,
  ] = await db.batch(fleetStatements(db, now));
  return withHotStats({
    networkRows,
    deviceRows,
    tunnelRows,
    gatewayRows,
    pools,
    poolVitals,
    poolPolicies,
    deliveryRows,
    counterRows,
    peerPaths: { relay: relayedRows, direct: directRows },
  });
}

export type Fleet = Awaited<ReturnType<typeof readFleet>>;
