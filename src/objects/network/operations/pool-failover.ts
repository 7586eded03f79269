import { eq } from "drizzle-orm";
import { getConfig } from "../../../lib/env";
import { forwardingProbes, gatewayPools } from "../../../db/schema";
import { nowIso } from "../../../lib/ids";
import { type DomainEvent, systemAudit } from "../../../services/audit/audit-trail";
import { commit, type WriterContext } from "../commit";
import type { HeldNetwork } from "../memory/held-network";
import {
  chooseActive,
  type FailoverReason,
  type MemberHealth,
  memberHealth,
  NO_VITALS,
  type PoolHealthRules,
} from "../../../core/pools/health";
import { assignedProbers, trustedVitals } from "../../../core/pools/probes";
import { loadVitals, poolHealthRules } from "../../../services/networks/pools/vitals";
import type { PoolRow } from "../../../db/rows";
import { bumpRoutingRevision } from "../state";

export interface Failover {
  poolId: string;
  from: string;
  to: string;
  reason: FailoverReason;
}

/** Whether the writer must keep checking on a clock: only a pool with a standby can fail over. */
export const needsPoolChecks = (held: HeldNetwork) => [...held.pools.values()].some((pool) => pool.members.length > 1);

/** Every member's health: probe runs fresh from D1, each member's last report from the network's hot state. */
export async function poolHealth(ctx: WriterContext, held: HeldNetwork, pools: readonly PoolRow[], rules: PoolHealthRules, now: number) {
  const assigned = assignedProbers(held.policies.values(), held.pools);
  const members = pools.flatMap((pool) => pool.members.map((member) => member.nodeId));
  const reported = new Map((ctx.hot?.nodes(members) ?? []).map((row) => [row.nodeId, row.lastSeenAt]));
  const vitals = await loadVitals(ctx.db, members, reported);
  return new Map(
    pools.map((pool) => [
      pool.id,
      new Map<string, MemberHealth>(
        pool.members.map((member) => [
          member.nodeId,
          memberHealth(
            member,
            trustedVitals(vitals.get(member.nodeId) ?? NO_VITALS, member.nodeId, assigned),
            member.nodeId === pool.activeNodeId,
            rules,
            now,
            pool,
          ),
        ]),
      ),
    ]),
  );
}

/**
 * The writer's pool evaluation (after pool writes and drains, on reports whose probes or staleness
 * changed, and on its alarm): each pool whose active member should change fails over. A failover is a
 * routing change like any other: the pool's row and the revision bump in one batch, with its audit row
 * (actor system, gateway.failover) and the gateway.failover notification; long-polling agents see the
 * new revision within about a second and fetch their deltas.
 */
export async function evaluatePools(ctx: WriterContext, networkId: string, rules: PoolHealthRules, now = Date.now()) {
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  const pools = [...held.pools.values()].filter((pool) => pool.members.length > 0).sort((a, b) => (a.id < b.id ? -1 : 1));
  const failovers: Failover[] = [];
  if (pools.length === 0) return { failovers, keepChecking: false };
  const health = await poolHealth(ctx, held, pools, rules, now);
  for (const pool of pools) {
    const choice = chooseActive(pool, health.get(pool.id)!);
    if (!choice) continue;
    failovers.push(await failOver(ctx, held, pool, choice.nodeId, choice.reason));
  }
  return { failovers, keepChecking: needsPoolChecks(held) };
}

/** `evaluatePools` at the rules in force; then the writer's clock is kept while a pool can fail over. `now`: tests choose the clock. */
export async function evaluatePoolsNow(ctx: WriterContext, networkId: string, now?: number) {
  const result = await evaluatePools(ctx, networkId, poolHealthRules(getConfig(ctx.env)), now);
  await ctx.schedulePoolChecks?.(networkId, result.keepChecking);
  return result;
}

/** After a pool write: the evaluation it may call for (a drained or departed active member hands over at once), and the pool as it then is. */
export async function evaluatedPool(ctx: WriterContext, networkId: string, poolId: string): Promise<PoolRow> {
  await evaluatePoolsNow(ctx, networkId);
  return (await ctx.memory.forWrite(ctx.db, networkId)).pools.get(poolId)!;
}

async function failOver(ctx: WriterContext, held: HeldNetwork, pool: PoolRow, to: string, reason: FailoverReason): Promise<Failover> {
  const { db } = ctx;
  const at = nowIso();
  const next: PoolRow = {
    ...pool,
    activeNodeId: to,
    lastFailoverAt: at,
    lastFailoverFrom: pool.activeNodeId,
    lastFailoverTo: to,
    lastFailoverReason: reason,
    updatedAt: at,
  };
  const { networkId, groupId } = { networkId: held.network.id, groupId: held.network.groupId };
  const policyIds = [...held.policies.values()].filter((policy) => policy.gatewayPath.includes(pool.id)).map((policy) => policy.id);
  const event: DomainEvent = {
    action: "gateway.failover",
    resourceId: pool.id,
    networkId,
    groupId,
    notify: {
      type: "gateway.failover",
      networkId,
      groupId,
      subjectId: pool.id,
      data: { pool: { id: pool.id, name: pool.name }, from: pool.activeNodeId, to, reason, at, policyIds: policyIds.sort() },
    },
  };
  await commit(
    { ...ctx, audit: systemAudit("gateway.failover", pool.id) },
    [
      db.update(gatewayPools).set(next).where(eq(gatewayPools.id, pool.id)),
      // The new active member starts with a clean record: probes across it so far were across a standby.
      db.delete(forwardingProbes).where(eq(forwardingProbes.nodeId, to)),
      bumpRoutingRevision(db, networkId),
    ],
    event,
  );
  held.pools.set(pool.id, next);
  held.bumped({ routing: true });
  return { poolId: pool.id, from: pool.activeNodeId, to, reason };
}
