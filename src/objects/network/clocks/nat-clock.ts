import { type Env, getConfig } from "../../../lib/env";
import type { PathReport } from "../nat/tracker";
import { candidateChangesOf, evaluateNatPaths, learnCandidates } from "../operations/nat-paths";
import { natRules } from "../nat/rules";
import { NatTracker } from "../nat/tracker";
import type { HeldNetwork } from "../memory/held-network";
import type { WriteRunner } from "../runner/write-runner";
import type { WriterAlarm } from "./writer-alarm";

/** Reports are looked at together: a check runs this long after the first report that asks for one. */
export const NAT_CHECK_MS = 2000;

/**
 * A network writer's paths across NAT (docs/nat.md): what its nodes' reports say (the tracker, in memory),
 * the endpoints they teach (stored only when changed), and the clock that moves pairs onto relays and back.
 * A report schedules a check; a check schedules the next only when some pair's answer is due by time.
 */
export class NatClock {
  readonly tracker = new NatTracker();

  constructor(
    private readonly env: Env,
    private readonly writes: WriteRunner,
    private readonly alarm: WriterAlarm,
  ) {}

  /**
   * Reports of one network: learn what changed (one queued write, only then), and look at its pairs soon.
   * `copy`: the network as the report was stored against (hot-reports.ts), so a beat reads no D1 row here.
   */
  async observe(networkId: string, reports: PathReport[], copy?: HeldNetwork) {
    const held = copy ?? (await this.writes.memory.forRead(this.writes.db, networkId));
    const rules = natRules(getConfig(this.env));
    const changes = candidateChangesOf(held, this.tracker, reports, rules);
    if (changes.size > 0) {
      const learned = await this.writes.write(undefined, (ctx) => learnCandidates(ctx, networkId, changes));
      if (!learned.ok) return learned;
    }
    // With a relay, pairs are judged within seconds; without one, only learned endpoints can expire.
    const relays = this.writes.memory.topologies.current(held).relays.size > 0;
    await this.checkWithin(networkId, relays ? NAT_CHECK_MS : rules.candidateTtlMs / 2);
    return { ok: true as const, value: changes.size > 0 };
  }

  /** The alarm's run: evaluate, then the next check when a pair is due by time. `now` (ms): tests choose the clock. */
  async check(networkId: string, now?: number) {
    const result = await this.writes.write(undefined, (ctx) => evaluateNatPaths(ctx, networkId, this.tracker, now));
    if (result.ok && result.value.nextCheckAt !== null) await this.alarm.set(networkId, "natPaths", result.value.nextCheckAt);
    return result;
  }

  /** A check within `ms` (one already that close is kept, so a stream of reports does not push it back). */
  private async checkWithin(networkId: string, ms: number) {
    const pending = await this.alarm.dueAt("natPaths");
    const now = Date.now();
    if (pending !== null && pending <= now + ms) return;
    await this.alarm.set(networkId, "natPaths", now + ms);
  }
}
