interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit. Callers submit items; one flush at a time writes everything submitted so far. While a
 * flush runs, new items gather for the next one, so under load many heartbeats share one D1 batch, and
 * when idle an item is written at once (no timer, no added latency). A caller's promise settles when the
 * flush that carried its item has committed, so the caller reads its own write afterwards.
 */
export class GroupCommit<Item> {
  private pending = new Map<string, { item: Item; waiters: Waiter[] }>();
  private draining = false;

  /** `merge(older, newer)` combines two items of one key waiting for the same flush (newer wins by default). */
  constructor(
    private readonly write: (items: Item[]) => Promise<void>,
    private readonly merge: (older: Item, newer: Item) => Item = (_older, newer) => newer,
  ) {}

  /** A newer item under the same key merges into an older one still waiting; both callers share its write. */
  submit(key: string, item: Item): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key);
      this.pending.set(key, {
        item: waiting ? this.merge(waiting.item, item) : item,
        waiters: [...(waiting?.waiters ?? []), { resolve, reject }],
      });
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
      // One bad item must not fail everyone who shared its batch: retry each on its own (once; the writes
      // are idempotent, so a retry of an item whose part already committed is harmless).
      for (const entry of entries) await this.flush([entry]);
    }
  }
}
