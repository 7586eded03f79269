/**
 * Long polls of a network's config readers (devices following their config): each waits, in the network's
 * writer, until the routing revision it holds is no longer the current one, or its time is up. The writer
 * wakes them after every command it runs, so a change reaches every waiting device at once and waiting costs
 * no D1 read at all (a timer each, nothing polled).
 */
export class RevisionWaiters {
  private readonly waiting = new Set<{ since: number; done: () => void }>();

  /** `current` is the held copy's routing revision, or null when nothing is held. */
  constructor(private readonly current: () => number | null) {}

  get size() {
    return this.waiting.size;
  }

  /** Resolves when the revision differs from `since` (at once if it already does), or after `ms`. */
  wait(since: number, ms: number): Promise<void> {
    const now = this.current();
    if (now !== null && now !== since) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        since,
        done: () => {
          clearTimeout(timer);
          this.waiting.delete(entry);
          resolve();
        },
      };
      const timer = setTimeout(entry.done, ms);
      this.waiting.add(entry);
    });
  }

  /** After a command: every waiter whose revision is no longer the current one gets its answer. */
  wake(): void {
    const now = this.current();
    if (now === null) return;
    for (const entry of [...this.waiting]) if (entry.since !== now) entry.done();
  }
}
