import type { WriteResult } from "../../../lib/write-result";

/**
 * What a network writer keeps a clock for: its pools' health checks, the next expiry of an access rule, its NAT
 * paths, its device nodes' presence (clocks/presence-clock.ts).
 */
export type AlarmNeed = "pools" | "accessExpiry" | "natPaths" | "presence";

const NEEDS: readonly AlarmNeed[] = ["pools", "accessExpiry", "natPaths", "presence"];
const dueKey = (need: AlarmNeed) => `due:${need}`;
const NETWORK_KEY = "networkId";
/** Where the pool clock kept the network's id before the alarm had more than one owner. */
const LEGACY_NETWORK_KEY = "poolNetworkId";

/** What a need's run answered: a refusal other than not_found retries at `retryAt` (ms). */
export type NeedRun = (networkId: string) => Promise<{ result: WriteResult<unknown>; retryAt: number }>;

/**
 * A Durable Object has one alarm; a network writer needs it for several things. Each need stores the time it
 * wants to run at (durably, beside the network's id), and the alarm is always at the earliest of them, so no
 * need's schedule can clobber another's. On the alarm every need that is due runs; each sets its own next time.
 */
export class WriterAlarm {
  constructor(private readonly storage: DurableObjectStorage) {}

  /** The time `need` is due, or null. */
  async dueAt(need: AlarmNeed): Promise<number | null> {
    return (await this.storage.get<number>(dueKey(need))) ?? null;
  }

  /** `need` runs at `at` (ms), or never (null); the alarm moves to the earliest need. */
  async set(networkId: string, need: AlarmNeed, at: number | null) {
    if (at === null) await this.storage.delete(dueKey(need));
    else await this.storage.put({ [NETWORK_KEY]: networkId, [dueKey(need)]: at });
    await this.arm();
  }

  /** On the alarm: runs each due need (an unexpected error throws, and the runtime retries the alarm). */
  async tick(runs: Record<AlarmNeed, NeedRun>) {
    const networkId = (await this.storage.get<string>(NETWORK_KEY)) ?? (await this.storage.get<string>(LEGACY_NETWORK_KEY));
    if (!networkId) return;
    const times = await this.storage.get<number>(NEEDS.map(dueKey));
    // An alarm fires at or after its time; run early (tests' runDurableObjectAlarm), the earliest need runs anyway
    // (each need's run is harmless before its time: a pool check evaluates, an expiry finds nothing lapsed).
    const cutoff = Math.max(Date.now(), Math.min(...times.values()));
    for (const need of NEEDS) {
      const at = times.get(dueKey(need));
      if (at === undefined || at > cutoff) continue;
      // Cleared first: the run sets its own next time (or none) through set().
      await this.storage.delete(dueKey(need));
      const { result, retryAt } = await runs[need](networkId).catch(async (error: unknown) => {
        await this.storage.put(dueKey(need), at); // the runtime retries the alarm, and this need with it
        throw error;
      });
      if (!result.ok && result.error.code === "not_found") {
        await this.storage.delete([NETWORK_KEY, LEGACY_NETWORK_KEY, ...NEEDS.map(dueKey)]);
        await this.storage.deleteAlarm();
        return;
      }
      if (!result.ok) await this.storage.put(dueKey(need), retryAt);
    }
    await this.arm();
  }

  private async arm() {
    const times = await this.storage.get<number>(NEEDS.map(dueKey));
    const earliest = Math.min(...times.values());
    if (!Number.isFinite(earliest)) {
      await this.storage.deleteAlarm();
      return;
    }
    // Set even when getAlarm() already names this time: inside alarm() it names the alarm being run, which the runtime then clears.
    await this.storage.setAlarm(earliest);
  }
}
