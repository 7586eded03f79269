import type { WriteResult } from "../../../lib/write-result";

/** How often a writer evaluates its network's pools while one can fail over (about 2 s: failover well inside 15 s). */
const POOL_CHECK_MS = 2000;
const POOL_NETWORK_KEY = "poolNetworkId";

/**
 * A network writer's alarm, kept while one of its pools can fail over: stale reports are noticed only by a
 * clock. The network's id is the one thing a network writer stores durably (its object storage).
 */
export class PoolClock {
  constructor(private readonly storage: DurableObjectStorage) {}

  /** While `needed`, an alarm every POOL_CHECK_MS; otherwise none. */
  async schedule(networkId: string, needed: boolean) {
    if (!needed) {
      await this.storage.deleteAlarm();
      return;
    }
    await this.storage.put(POOL_NETWORK_KEY, networkId);
    const pending = await this.storage.getAlarm();
    const now = Date.now();
    if (pending !== null && pending > now && pending <= now + POOL_CHECK_MS) return;
    await this.storage.setAlarm(now + POOL_CHECK_MS);
  }

  /** On the alarm: `evaluate` sets the next alarm through schedule(). */
  async tick(evaluate: (networkId: string) => Promise<WriteResult<unknown>>) {
    const networkId = await this.storage.get<string>(POOL_NETWORK_KEY);
    if (!networkId) return;
    // An unexpected error throws, and the runtime retries the alarm; a refusal keeps the clock unless the network is gone.
    const result = await evaluate(networkId);
    if (result.ok) return;
    if (result.error.code === "not_found") await this.storage.delete(POOL_NETWORK_KEY);
    else await this.storage.setAlarm(Date.now() + POOL_CHECK_MS);
  }
}
