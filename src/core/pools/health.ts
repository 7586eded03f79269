import type { PoolMember } from "../../db/schema";

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
  /** POOL_HOLD_DOWN_SECONDS */
  holdDownSeconds: number;
}

/** Why a member is unhealthy (the API's enum). */
export const UNHEALTHY_REASONS = ["stale report", "not forwarding", "unreachable", "drained"] as const;
export type UnhealthyReason = (typeof UNHEALTHY_REASONS)[number];
export type FailoverReason = "unhealthy: stale report" | "not forwarding" | "unreachable" | "drained" | "preempted";

export interface MemberHealth {
  healthy: boolean;
  /** Why not; null when healthy. */
  reason: UnhealthyReason | null;
  /** Until when a member the pool failed away from is chosen only if no other member is healthy (null: not held). */
  heldDownUntil: string | null;
}

/** The part of a pool's row that says whom it last failed away from, and why. */
export interface LastFailoverFields {
  lastFailoverAt: string | null;
  lastFailoverFrom: string | null;
  lastFailoverReason: string | null;
}

export const NO_VITALS: MemberVitals = { lastSeenAt: null, probeFailStreak: 0, proberNodeId: null };

/**
 * A member is healthy when it is not drained, its node reported within staleSeconds and fewer than
 * probeFailures reports in a row had its probe down (the agent judges a probe down after several echoes lost
 * in a row). The probe of an active member crosses it ("not forwarding" when down); a standby's is a ping
 * to its own address over its standby link ("unreachable").
 */
export function memberHealth(
  member: PoolMember,
  vitals: MemberVitals,
  active: boolean,
  rules: PoolHealthRules,
  now: number,
  pool: LastFailoverFields = NO_FAILOVER,
): MemberHealth {
  const heldDownUntil = heldDownUntilOf(member.nodeId, pool, rules, now);
  if (member.drained) return { healthy: false, reason: "drained", heldDownUntil };
  const seen = vitals.lastSeenAt === null ? Number.NaN : Date.parse(vitals.lastSeenAt);
  if (!(now - seen <= rules.staleSeconds * 1000)) return { healthy: false, reason: "stale report", heldDownUntil };
  if (vitals.probeFailStreak >= rules.probeFailures)
    return { healthy: false, reason: active ? "not forwarding" : "unreachable", heldDownUntil };
  return { healthy: true, reason: null, heldDownUntil };
}

const NO_FAILOVER: LastFailoverFields = { lastFailoverAt: null, lastFailoverFrom: null, lastFailoverReason: null };

/**
 * Hold-down: a member the pool failed away from because it was unhealthy waits holdDownSeconds from that
 * failover before it is chosen again while another member is healthy, so a member that flaps does not pull
 * traffic back and forth (with preempt) nor take it at the next failover the moment it answers again. A
 * drain or a preemption is no fault of the member's: no hold.
 */
function heldDownUntilOf(nodeId: string, pool: LastFailoverFields, rules: PoolHealthRules, now: number): string | null {
  if (pool.lastFailoverFrom !== nodeId || pool.lastFailoverAt === null) return null;
  if (pool.lastFailoverReason === "drained" || pool.lastFailoverReason === "preempted") return null;
  const until = Date.parse(pool.lastFailoverAt) + rules.holdDownSeconds * 1000;
  return until > now ? new Date(until).toISOString() : null;
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
 * and a preferred member is healthy and not held down; an unhealthy one hands over to the preferred healthy
 * member not held down, else to a held-down one that is healthy (better than a dead end). With no healthy
 * member the active one stays: a change would only move traffic to another dead end.
 */
export function chooseActive(
  pool: PoolForChoice,
  health: ReadonlyMap<string, MemberHealth>,
): { nodeId: string; reason: FailoverReason } | null {
  const ordered = byPreference(pool.members);
  const healthy = ordered.filter((member) => health.get(member.nodeId)?.healthy);
  const eligible = healthy.filter((member) => health.get(member.nodeId)?.heldDownUntil === null);
  const current = health.get(pool.activeNodeId);
  if (current?.healthy) {
    const best = eligible[0];
    if (!pool.preempt || !best || best.nodeId === pool.activeNodeId) return null;
    const rank = (nodeId: string) => ordered.findIndex((member) => member.nodeId === nodeId);
    return rank(best.nodeId) < rank(pool.activeNodeId) ? { nodeId: best.nodeId, reason: "preempted" } : null;
  }
  const best = eligible[0] ?? healthy[0];
  if (!best) return null;
  const why = current?.reason;
  return {
    nodeId: best.nodeId,
    reason: why === "drained" || why === "not forwarding" || why === "unreachable" ? why : "unhealthy: stale report",
  };
}
