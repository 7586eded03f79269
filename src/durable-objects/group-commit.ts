interface Waiter { resolve: () => void; reject: (error: unknown) => void }

/**
 * Group commit. Callers submit items; one flush at a time writes everything submitted so far. While a
 * flush runs, new items gather for the next one, so under load many heartbeats share one D1 batch, and
 * when idle an item is written at once (no timer, no added latency). A caller's promise settles when the
 * flush that carried its item has committed, so the caller reads its own write afterwards.
 */
export class GroupCommit<Item> {
  private pending = new Map<string, { item: Item; waiters: Waiter[] }>();
  private draining = false;

  constructor(private readonly write: (items: Item[]) => Promise<void>) {}

  /** A newer item under the same key replaces an older one still waiting; both callers share its write. */
  submit(key: string, item: Item): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key)?.waiters ?? [];
      this.pending.set(key, { item, waiters: [...waiting, { resolve, reject }] });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.size > 0) {
        const entries = [...this.pending.values()];
        this.pending = new Map();
        await this.flush(entries);
      }
    } finally {
      this.draining = false;
    }
  }

  private async flush(entries: { item: Item; waiters: Waiter[] }[]): Promise<void> {
    try {
      await this.write(entries.map((entry) => entry.item));
      for (const waiter of entries.flatMap((entry) => entry.waiters)) waiter.resolve();
    } catch (error) {
      if (entries.length === 1) {
        for (const waiter of entries[0]!.waiters) waiter.reject(error);
        return;
      }
      // One bad item must not fail everyone who shared its batch: retry each on its own.
      for (const entry of entries) await this.flush([entry]);
    }
  }
}
