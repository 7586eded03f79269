import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../../db/client";
import { networks } from "../../../db/schema";
import { guardStatement } from "../authority/acting-authority";

/** A write that ran on changes not yet committed, which then failed: run it again, alone (WriteRunner). */
export class RetryAlone extends Error {
  constructor() {
    super("retry alone: a write this one ran after did not commit");
  }
}

/** RetryAlone, possibly wrapped (drizzle wraps what a read threw as its cause). */
export function isRetryAlone(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) if (current instanceof RetryAlone) return true;
  return false;
}

export interface Revisions {
  routingRevision: number;
  dnsRevision: number;
}

/** One write's staged statements, and the network revisions it ran on (D1's, once the writes before it commit). */
export interface Staged {
  networkId: string;
  before: Revisions;
  items: BatchItem<"sqlite">[];
  /** The write's authority guards by key (commit.ts StagedGuard): the batch runs each distinct one once, first. */
  guards: Map<string, BatchItem<"sqlite">>;
  /** Who reads the results of some of the items (from `at`, `count` of them) once they committed. */
  watchers: { at: number; count: number; seen: (results: unknown[]) => void }[];
}

interface Entry {
  staged: Staged | null;
  settle: (error?: unknown) => void;
}

/**
 * Concurrent writes of one network committed together (issue 30). The writer still runs its writes one at a
 * time, each against the network as held in memory, but a write's batch no longer holds the queue while it is
 * in D1: the write stages its statements here, applies its change to memory at once, and the next write runs.
 * One D1 batch is in flight at a time; what staged meanwhile goes in the next, in queue order, so under load
 * a batch carries many writes, each with its own guard, conditions, audit row and revision bumps.
 *
 * A combined batch is all or nothing. It starts with a guard that D1's revisions are the ones its first write
 * ran on (a change that went around the writer fails it). If it fails for any reason (a guard refusal, a
 * unique index, a condition that no longer holds), the held copy is dropped and every write in it, and every
 * write staged after it (they ran on its changes), answers RetryAlone: each runs again alone, the way writes
 * ran before, so a refused write fails only itself. `epoch` counts such failures: a write that began before
 * one must not stage what it computed.
 */
export class CombinedCommits {
  epoch = 0;
  /** Combined batches run, the writes they carried, and writes run again alone: the writer's stats(). */
  readonly counts = { batches: 0, combinedWrites: 0, retriedAlone: 0 };
  private pending: Entry[] = [];
  private flushing = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    /** The held copy holds uncommitted changes that will not commit: drop it. */
    private readonly onBroken: () => void,
  ) {}

  /** Something is staged or in D1: the held copy is ahead of D1. */
  get busy() {
    return this.flushing || this.pending.length > 0;
  }

  /**
   * A write's outcome point, in queue order: its staged statements commit with the next batch, or (nothing
   * staged: a refusal, a no-op) it waits for the writes before it, whose changes it may have seen. Rejects
   * RetryAlone when those did not commit, or when the write began before an earlier failure.
   */
  settleAfter(staged: Staged | null, epoch: number): Promise<void> {
    if (epoch !== this.epoch) return Promise.reject(new RetryAlone());
    if (!staged && !this.busy) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.pending.push({ staged, settle: (error) => (error ? reject(error) : resolve()) });
      if (!this.flushing) void this.flush();
    });
  }

  /** Resolves once nothing is staged or in flight (whatever its outcome). */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async flush() {
    this.flushing = true;
    while (this.pending.length > 0) {
      const entries = this.pending;
      this.pending = [];
      const staged = entries.flatMap((entry) => (entry.staged ? [entry.staged] : []));
      try {
        if (staged.length > 0) {
          const { batch, leading } = combinedBatch(this.db, staged);
          const results = await this.db.batch(batch);
          this.counts.batches++;
          this.counts.combinedWrites += staged.length;
          showResults(staged, results.slice(leading));
        }
        for (const entry of entries) entry.settle();
      } catch {
        // Nothing of the batch committed; the writes staged since ran on its changes too.
        this.epoch++;
        this.onBroken();
        for (const entry of [...entries, ...this.pending]) entry.settle(new RetryAlone());
        this.pending = [];
      }
    }
    this.flushing = false;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}

/** Each write's watchers get their items' results (`results` from the first write's first item on). */
function showResults(staged: Staged[], results: unknown[]) {
  let base = 0;
  for (const write of staged) {
    for (const { at, count, seen } of write.watchers) seen(results.slice(base + at, base + at + count));
    base += write.items.length;
  }
}

/**
 * The batch of staged writes, led by the guard that D1 holds the revisions the first of them ran on, then each
 * distinct authority guard once (one manager's 50 writes need one: the batch is all or nothing, so a guard
 * that fails refuses every write it stood for either way), then the writes. `leading`: the guards' count.
 */
function combinedBatch(db: Db, staged: Staged[]) {
  const { networkId, before } = staged[0]!;
  const current = sql`exists (select 1 from ${networks} where ${networks.id} = ${networkId} and ${networks.routingRevision} = ${before.routingRevision} and ${networks.dnsRevision} = ${before.dnsRevision})`;
  const guards = new Map<string, BatchItem<"sqlite">>();
  for (const write of staged) for (const [key, item] of write.guards) if (!guards.has(key)) guards.set(key, item);
  const batch: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
    guardStatement(db, current),
    ...guards.values(),
    ...staged.flatMap((write) => write.items),
  ];
  return { batch, leading: 1 + guards.size };
}
