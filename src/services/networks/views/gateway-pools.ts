import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { gatewayPools, networks, type PoolMember, routingPolicies } from "../../../db/schema";
import type { Env } from "../../../lib/env";
import { notFound } from "../../../lib/errors";
import { byPreference, type MemberHealth, memberHealth, NO_VITALS, type PoolHealthRules } from "../../../core/pools/health";
import { assignedProbers, trustedVitals } from "../../../core/pools/probes";
import { loadVitals } from "../pools/vitals";
import { reportsOf } from "./node-reports";
import type { PolicyRow, PoolRow } from "../../../db/rows";

export interface MemberStatus extends PoolMember, MemberHealth {
  lastSeenAt: string | null;
  probeFailStreak: number;
}

export interface PoolStatus extends PoolRow {
  members: MemberStatus[];
}

/**
 * Pools with each member's health as the writer would judge it now: probe runs read fresh from D1, each
 * member's last report from what its network's object holds (node-reports.ts).
 */
export async function describePools(env: Env, db: Db, rules: PoolHealthRules, pools: PoolRow[], now = Date.now()): Promise<PoolStatus[]> {
  const members = pools.flatMap((pool) => pool.members.map((member) => ({ id: member.nodeId, networkId: pool.networkId })));
  const [assigned, reports] = await Promise.all([loadAssignedProbers(db, pools), reportsOf(env, members)]);
  const reported = new Map([...reports].map(([nodeId, report]) => [nodeId, report.lastSeenAt]));
  const vitals = await loadVitals(
    db,
    members.map((member) => member.id),
    reported,
  );
  return pools.map((pool) => ({
    ...pool,
    members: byPreference(pool.members).map((member) => {
      const trusted = trustedVitals(vitals.get(member.nodeId) ?? NO_VITALS, member.nodeId, assigned);
      // Who probed is the writer's business; the status shows the run it counts.
      const { proberNodeId: _prober, ...seen } = trusted;
      return { ...member, ...memberHealth(member, trusted, member.nodeId === pool.activeNodeId, rules, now, pool), ...seen };
    }),
  }));
}

/** As the writer judges it: the probers of these pools' networks, from their policies and pools. */
async function loadAssignedProbers(db: Db, pools: PoolRow[]) {
  const networkIds = [...new Set(pools.map((pool) => pool.networkId))];
  if (networkIds.length === 0) return new Map<string, string>();
  const [policies, all] = await Promise.all([
    db.select().from(routingPolicies).where(inArray(routingPolicies.networkId, networkIds)).all(),
    db.select().from(gatewayPools).where(inArray(gatewayPools.networkId, networkIds)).all(),
  ]);
  return assignedProbers(policies, new Map(all.map((pool) => [pool.id, pool])));
}

export const listPools = (db: Db, networkId: string) =>
  db
    .select()
    .from(gatewayPools)
    .where(eq(gatewayPools.networkId, networkId))
    .orderBy(asc(gatewayPools.createdAt), asc(gatewayPools.id))
    .all();

export interface HopStatus {
  index: number;
  poolId: string | null;
  activeNodeId: string;
  /** Whether the node carrying this hop's traffic is healthy; false with no healthy member to fail over to. */
  healthy: boolean;
  members: MemberStatus[];
  lastFailover: { at: string; from: string; to: string; reason: string } | null;
}

/**
 * A policy's path as it runs now: per hop the member carrying traffic, every member's health and the
 * hop's last failover. A plain node hop is a pool of one (priority 0, never drained).
 */
export async function loadPolicyStatus(env: Env, db: Db, rules: PoolHealthRules, policy: PolicyRow, now = Date.now()) {
  const poolIds = policy.gatewayPath.filter((hop) => hop.startsWith("gpl_"));
  const [network, pools] = await Promise.all([
    db.select({ routingRevision: networks.routingRevision }).from(networks).where(eq(networks.id, policy.networkId)).get(),
    poolIds.length === 0
      ? Promise.resolve([] as PoolRow[])
      : db
          .select()
          .from(gatewayPools)
          .where(and(eq(gatewayPools.networkId, policy.networkId), inArray(gatewayPools.id, poolIds)))
          .all(),
  ]);
  if (!network) throw notFound("Network");
  const units = policy.gatewayPath.map(
    (hop): PoolRow =>
      pools.find((pool) => pool.id === hop) ?? {
        id: hop,
        networkId: policy.networkId,
        name: hop,
        preempt: false,
        members: [{ nodeId: hop, priority: 0, drained: false }],
        activeNodeId: hop,
        lastFailoverAt: null,
        lastFailoverFrom: null,
        lastFailoverTo: null,
        lastFailoverReason: null,
        createdAt: "",
        updatedAt: "",
      },
  );
  const described = await describePools(env, db, rules, units, now);
  const hops: HopStatus[] = described.map((unit, index) => ({
    index,
    poolId: pools.some((pool) => pool.id === unit.id) ? unit.id : null,
    activeNodeId: unit.activeNodeId,
    healthy: unit.members.find((member) => member.nodeId === unit.activeNodeId)?.healthy ?? false,
    members: unit.members,
    lastFailover: lastFailoverOf(unit),
  }));
  return { policyId: policy.id, hops, routingRevision: network.routingRevision };
}

export const lastFailoverOf = (pool: PoolRow) =>
  pool.lastFailoverAt && pool.lastFailoverFrom && pool.lastFailoverTo && pool.lastFailoverReason
    ? { at: pool.lastFailoverAt, from: pool.lastFailoverFrom, to: pool.lastFailoverTo, reason: pool.lastFailoverReason }
    : null;
