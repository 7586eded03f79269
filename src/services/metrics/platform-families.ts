import type { D1Meter } from "../../db/metered-d1";
import { DELIVERY_STATUSES, GATEWAY_HEALTH, GATEWAY_STATUSES } from "../../db/schema";
import type { MetricFamily } from "../../lib/prometheus-text";
import { memberHealth, NO_VITALS, type PoolHealthRules } from "../../core/pools/health";
import { assignedProbers, trustedVitals } from "../../core/pools/probes";
import { loginFailures } from "./counters";
import type { Fleet } from "./fleet-queries";

/** Inventory gateways: counts by status and health (every pair, zeros included), and the presence verdict of each. */
function gatewayFamilies(fleet: Fleet): MetricFamily[] {
  const counts = new Map<string, number>();
  for (const row of fleet.gatewayRows) counts.set(`${row.status} ${row.health}`, (counts.get(`${row.status} ${row.health}`) ?? 0) + 1);
  return [
    {
      name: "wgo_gateways",
      help: "Inventory gateways by status (active, draining, disabled) and the health their gateway-manager last reported.",
      type: "gauge",
      samples: GATEWAY_STATUSES.flatMap((status) =>
        GATEWAY_HEALTH.map((health) => ({ labels: { status, health }, value: counts.get(`${status} ${health}`) ?? 0 })),
      ),
    },
    {
      name: "wgo_gateway_up",
      help: "1 when the gateway-presence detector last judged the inventory gateway up, 0 down; absent before its first verdict.",
      type: "gauge",
      samples: fleet.gatewayRows.flatMap((row) =>
        row.presence === null
          ? []
          : [{ labels: { gateway_id: row.id, gateway_name: row.name, region_id: row.regionId }, value: row.presence === "up" ? 1 : 0 }],
      ),
    },
  ];
}

/** Gateway pools: members, healthy members and whether the active member is healthy, judged as the writer judges them. */
function poolFamilies(fleet: Fleet, rules: PoolHealthRules, now: number): MetricFamily[] {
  const assigned = assignedProbers(fleet.poolPolicies, new Map(fleet.pools.map((pool) => [pool.id, pool])));
  const vitals = new Map(
    fleet.poolVitals.map((row) => [
      row.id,
      { lastSeenAt: row.lastSeenAt, probeFailStreak: row.probeFailStreak ?? 0, proberNodeId: row.proberNodeId ?? null },
    ]),
  );
  const judged = fleet.pools.map((pool) => {
    const labels = { network_id: pool.networkId, pool_id: pool.id };
    const health = pool.members.map((member) => {
      const seen = trustedVitals(vitals.get(member.nodeId) ?? NO_VITALS, member.nodeId, assigned);
      const active = member.nodeId === pool.activeNodeId;
      return { active, ...memberHealth(member, seen, active, rules, now, pool) };
    });
    return { labels, health };
  });
  return [
    {
      name: "wgo_gateway_pool_members",
      help: "Members of the gateway pool.",
      type: "gauge",
      samples: judged.map(({ labels, health }) => ({ labels, value: health.length })),
    },
    {
      name: "wgo_gateway_pool_members_healthy",
      help: "Members of the gateway pool that are healthy now (not drained, reported recently, forwarding while active).",
      type: "gauge",
      samples: judged.map(({ labels, health }) => ({ labels, value: health.filter((member) => member.healthy).length })),
    },
    {
      name: "wgo_gateway_pool_active_healthy",
      help: "1 when the member carrying the pool's traffic is healthy, 0 when it is not (a failover is due or impossible).",
      type: "gauge",
      samples: judged.map(({ labels, health }) => ({ labels, value: health.some((member) => member.active && member.healthy) ? 1 : 0 })),
    },
  ];
}

/** Platform-wide series: gateways, pools, notification deliveries, login failures, and what this scrape cost. */
export function platformFamilies(fleet: Fleet, rules: PoolHealthRules, now: number, cost: D1Meter): MetricFamily[] {
  const deliveries = new Map(fleet.deliveryRows.map((row) => [row.status, row.deliveries]));
  return [
    ...gatewayFamilies(fleet),
    ...poolFamilies(fleet, rules, now),
    {
      name: "wgo_notification_deliveries",
      help: "Notification deliveries by state (pending: queued or retrying; delivered; failed: gave up), as kept by retention.",
      type: "gauge",
      samples: DELIVERY_STATUSES.map((state) => ({ labels: { state }, value: deliveries.get(state) ?? 0 })),
    },
    {
      name: "wgo_login_failures_total",
      help: "Failed sign-ins since the database was created: wrong email or password (method=password), wrong MFA code (method=mfa).",
      type: "counter",
      samples: loginFailures(fleet.counterRows).map(({ method, value }) => ({ labels: { method }, value })),
    },
    {
      name: "wgo_metrics_scrape_d1_statements",
      help: "D1 statements this scrape ran (its own cost, as D1 reports it).",
      type: "gauge",
      samples: [{ value: cost.statements }],
    },
    {
      name: "wgo_metrics_scrape_d1_rows_read",
      help: "D1 rows this scrape read (D1 bills reads by rows read).",
      type: "gauge",
      samples: [{ value: cost.rowsRead }],
    },
  ];
}
