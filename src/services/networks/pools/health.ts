import type { PoolMember } from "../../../db/schema";

/** What the writer knows of a member when it decides: its node's last report and the probes across it. */
export interface MemberVitals {
  lastSeenAt: string | null;
  probeFailStreak: number;
  /** Whose reports made the streak (null: none). */
  proberNodeId: string | null;
}

export interface PoolHealthRules {
  /** POOL_STALE_SECONDS */
  staleSeconds: number;
  /** POOL_PROBE_FAILURES */
  probeFailures: number;
}

export type UnhealthyReason = "stale report" | "not forwarding" | "drained";
export type FailoverReason = "unhealthy: stale report" | "not forwarding" | "drained" | "preempted";

export interface MemberHealth {
  healthy: boolean;
  /** Why not; null when healthy. */
  reason: UnhealthyReason | null;
}

export const NO_VITALS: MemberVitals = { lastSeenAt: null, probeFailStreak: 0, proberNodeId: null };

/**
 * A member is healthy when it is not drained, its node reported within staleSeconds and, while it carries
 * traffic, fewer than probeFailures probes across it failed in a row. A standby has nobody routing through
 * it, so no probe speaks for or against it.
 */
export function memberHealth(member: PoolMember, vitals: MemberVitals, active: boolean, rules: PoolHealthRules, now: number): MemberHealth {
  if (member.drained) return { healthy: false, reason: "drained" };
  const seen = vitals.lastSeenAt === null ? Number.NaN : Date.parse(vitals.lastSeenAt);
  if (!(now - seen <= rules.staleSeconds * 1000)) return { healthy: false, reason: "stale report" };
  if (active && vitals.probeFailStreak >= rules.probeFailures) return { healthy: false, reason: "not forwarding" };
  return { healthy: true, reason: null };
}

/** Members in preference order: lower priority first, ties by node id. */
export const byPreference = (members: readonly PoolMember[]) =>
  [...members].sort((a, b) => a.priority - b.priority || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));

/** The member a pool starts with (or falls back to when its active one left): the preferred one not drained. */
export const initialActive = (members: readonly PoolMember[]) => {
  const ordered = byPreference(members);
  return (ordered.find((member) => !member.drained) ?? ordered[0]!).nodeId;
};

export interface PoolForChoice {
  activeNodeId: string;
  preempt: boolean;
  members: readonly PoolMember[];
}

/**
 * Who should carry a pool's traffic, or null to keep the active member. The active one keeps it while
 * healthy (a recovered member does not take it back, so no flapping) unless the pool asks for preemption
 * and a preferred member is healthy; an unhealthy one hands over to the preferred healthy member. With no
 * healthy member the active one stays: a change would only move traffic to another dead end.
 */
export function chooseActive(
  pool: PoolForChoice,
  health: ReadonlyMap<string, MemberHealth>,
): { nodeId: string; reason: FailoverReason } | null {
  const ordered = byPreference(pool.members);
  const best = ordered.find((member) => health.get(member.nodeId)?.healthy);
  const current = health.get(pool.activeNodeId);
  if (current?.healthy) {
    if (!pool.preempt || !best || best.nodeId === pool.activeNodeId) return null;
    const rank = (nodeId: string) => ordered.findIndex((member) => member.nodeId === nodeId);
    return rank(best.nodeId) < rank(pool.activeNodeId) ? { nodeId: best.nodeId, reason: "preempted" } : null;
  }
  if (!best) return null;
  const why = current?.reason;
  return {
    nodeId: best.nodeId,
    reason: why === "drained" ? "drained" : why === "not forwarding" ? "not forwarding" : "unhealthy: stale report",
  };
}
