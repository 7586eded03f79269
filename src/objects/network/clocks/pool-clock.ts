import type { WriterAlarm } from "./writer-alarm";

/** How often a writer evaluates its network's pools while one can fail over (about 2 s: failover well inside 15 s). */
export const POOL_CHECK_MS = 2000;

/**
 * A network writer's pool checks, kept while one of its pools can fail over: stale reports are noticed only
 * by a clock. The writer's one alarm (writer-alarm.ts) runs them, beside its other needs.
 */
export class PoolClock {
  constructor(private readonly alarm: WriterAlarm) {}

  /** While `needed`, a check within POOL_CHECK_MS (one already that close is kept, so frequent writes do not push it back); otherwise none. */
  async schedule(networkId: string, needed: boolean) {
    if (!needed) return this.alarm.set(networkId, "pools", null);
    const pending = await this.alarm.dueAt("pools");
    const now = Date.now();
    if (pending !== null && pending > now && pending <= now + POOL_CHECK_MS) return;
    await this.alarm.set(networkId, "pools", now + POOL_CHECK_MS);
  }
}
