import { barrierD1 } from "../../../db/barrier-d1";
import { createDb } from "../../../db/client";
import { meteredD1, newMeter } from "../../../db/metered-d1";
import { getConfig, type Env } from "../../../lib/env";
import { SerialQueue } from "../../../lib/serial-queue";
import { serializeError } from "../../../lib/errors";
import { capture, type WriteResult } from "../../../lib/write-result";
import type { AuditContext } from "../../../services/audit/audit-trail";
import { deliverInBackground } from "../../../services/notifications/queue";
import type { Staging, WriterContext } from "../commit";
import { DirectoryReads, type Warm } from "../directory-reads";
import type { HeldNetwork } from "../memory/held-network";
import { NetworkMemory } from "../memory/network-memory";
import type { Topology } from "../../../core/routing";
import { answerable, asManager, type CallerCheck, refusedBeforeTurn, type WriteCaller } from "../authority/write-authority";
import { CombinedCommits, isRetryAlone, RetryAlone } from "./combined-commits";
import type { Job, Running, Task, WriterHooks } from "./write-job";

export type { WriterHooks } from "./write-job";
import { KeptAuthority } from "../authority/kept-authority";

/**
 * What a single writer is for, shared by NetworkWriter and GroupWriter: the queue that runs one write at a
 * time to its commit, the metered D1 it writes through, the network it holds, error capture across the RPC
 * boundary, and the first delivery attempt of what a write notified. A field of the Durable Object, not its
 * base class: only the object's own methods are RPC methods.
 */
export class WriteRunner {
  readonly queue = new SerialQueue();
  /** What this writer's writes and reads cost in D1, as D1 reports it (the writer's stats()). */
  readonly meter = newMeter();
  readonly db;
  /** Callers whose authority a committed batch proved: their writes skip the read that checks it. */
  readonly kept = new KeptAuthority();
  /** Writes refused before they took a turn in the queue (a caller not kept, checked on arrival: afterCallerCheck). */
  refusedBeforeTurn = 0;
  /** Writes committed together (absent: each write's batch runs alone, in the queue). */
  readonly combined?: CombinedCommits;
  /** What a write run beside staged batches reads through: each read waits until they have committed. */
  private readonly stagingDb;
  /**
   * The write running in the queue: the failures of combined batches counted when it began (it retries alone
   * after one), and what it staged and has not yet sent to commit.
   */
  private running: Running = { epoch: 0, staged: null };
  /**
   * The network's rows, held between writes (a write reads only what it changes) and serving config reads.
   * What runs "in the queue" for it (reloads, reads that found D1 behind) first lets staged batches commit.
   */
  readonly memory = new NetworkMemory(
    (task) =>
      this.queue.run(async () => {
        await this.combined?.idle();
        return task();
      }),
    () => this.combined?.busy ?? false,
  );

  constructor(
    private readonly env: Env,
    private readonly state: DurableObjectState,
    private readonly hooks: WriterHooks = {},
  ) {
    const metered = meteredD1(env.DB, this.meter);
    this.db = createDb(metered);
    const combined = hooks.combine ? new CombinedCommits(this.db, () => this.memory.forget()) : undefined;
    this.combined = combined;
    this.stagingDb = createDb(barrierD1(metered, () => this.committedSoFar()));
  }

  /**
   * Before the running write reads D1 (or commits alone): what it staged so far commits, then every batch
   * before it has. RetryAlone when one of them failed: what the write computed rests on changes that are gone.
   */
  private async committedSoFar() {
    const { combined, running } = this;
    if (!combined) return;
    if (running.staged) {
      const staged = running.staged;
      running.staged = null;
      await combined.settleAfter(staged, running.epoch);
    }
    await combined.idle();
    if (combined.epoch !== running.epoch) throw new RetryAlone();
    await this.confirmCopy();
  }

  /** A copy taken without reading D1 that D1 no longer agrees with: the write runs again alone (memory/network-memory.ts). */
  private async confirmCopy() {
    if (!(await this.memory.confirmUnchecked(this.db))) throw new RetryAlone();
  }

  /**
   * A read of the network as held (outside the queue), and of its current topology when the view asks for it
   * (built once per revision); an API error crosses RPC as data, as a write's does.
   */
  read<T>(networkId: string, view: (held: HeldNetwork, topology: () => Topology) => T | Promise<T>): Promise<WriteResult<T>> {
    return capture(async () => {
      const held = await this.memory.forRead(this.db, networkId);
      return view(held, () => this.memory.topologies.current(held));
    });
  }

  /**
   * Runs one write in the queue; an API error it throws comes back as data (unwrap throws it again). `warm`
   * starts the write's directory reads before its turn, on the copy as held now (directory-reads.ts). `by`: the
   * caller the write authorises itself (write-authority.ts), checked before its turn unless kept.
   */
  write<T>(audit: AuditContext | undefined, task: Task<T>, warm?: Warm, by?: CallerCheck): Promise<WriteResult<T>> {
    const job: Job<T> = { audit, task, directory: new DirectoryReads(this.env, this.db) };
    warm?.(job.directory, this.memory.heldCopy(), this.kept);
    return by ? this.afterCallerCheck(job, by) : this.run(job);
  }

  /**
   * A manager's write (authority/write-authority.ts): `caller` is checked on arrival unless kept (a stranger takes no
   * turn), again in the queue, and a third time by the batch's guard; `task` runs on the network as the check found
   * it. `warm` starts its directory reads before its turn.
   */
  byManager<T>(
    audit: AuditContext | undefined,
    networkId: string,
    caller: WriteCaller,
    what: string,
    task: (ctx: WriterContext, held: HeldNetwork) => Promise<T>,
    warm?: Warm,
  ) {
    return this.write(audit, asManager(networkId, caller, what, task), warm, { caller, networkId, what });
  }

  /** byManager for writes tests and the system also make without a caller (the Worker authorised those). */
  asManager<T>(audit: AuditContext | undefined, networkId: string, caller: WriteCaller | undefined, what: string, task: Task<T>) {
    return caller ? this.byManager(audit, networkId, caller, what, task) : this.write(audit, task);
  }

  /** Strangers never hold the queue: a caller not kept is checked, and refused, before the write's turn. */
  private async afterCallerCheck<T>(job: Job<T>, by: CallerCheck): Promise<WriteResult<T>> {
    const refused = await refusedBeforeTurn(this.memory.heldNetwork(), this.kept, job.directory, by);
    if (!refused) return this.run(job);
    this.refusedBeforeTurn++;
    return { ok: false, error: serializeError(refused) };
  }

  private run<T>(job: Job<T>) {
    return this.combined ? this.writeCombined(this.combined, job) : this.writeAlone(job);
  }

  private context(audit: AuditContext | undefined, directory: DirectoryReads, staging?: Staging): WriterContext {
    return {
      env: this.env,
      db: staging ? this.stagingDb : this.db,
      directory,
      memory: this.memory,
      ...(this.hooks.hot ? { hot: this.hooks.hot } : {}),
      audit,
      notificationIds: [],
      schedulePoolChecks: this.hooks.schedulePoolChecks,
      scheduleAccessExpiry: this.hooks.scheduleAccessExpiry,
      staging,
      kept: this.kept,
      whenCommitted: [],
    };
  }

  /** The write on D1 as committed, its batch its own: the way every write ran before writes were combined. */
  private writeAlone<T>({ audit, task, directory }: Job<T>): Promise<WriteResult<T>> {
    const ctx = this.context(audit, directory);
    return this.queue.run(async () => {
      await this.combined?.idle();
      const result = await answerable(ctx, await capture(() => task(ctx)));
      this.afterCommit(ctx);
      return result;
    });
  }

  /**
   * The write in the queue against the network as held, its batch staged (combined-commits.ts): the queue
   * moves on at once, and the answer waits for the batch that carries it. Anything that makes it unsure (an
   * earlier batch failed, its own did, its results decide what happened and it already staged) runs it
   * again alone.
   */
  private async writeCombined<T>(combined: CombinedCommits, job: Job<T>): Promise<WriteResult<T>> {
    const { audit, task, directory } = job;
    const staging: Staging = {
      stage: (items, seen, guard) => {
        const network = this.memory.heldNetwork();
        if (!network) throw new RetryAlone();
        const { id: networkId, routingRevision, dnsRevision } = network;
        this.running.staged ??= { networkId, before: { routingRevision, dnsRevision }, items: [], guards: new Map(), watchers: [] };
        const { staged } = this.running;
        if (guard && !staged.guards.has(guard.key)) staged.guards.set(guard.key, guard.item);
        if (seen) staged.watchers.push({ at: staged.items.length, count: items.length, seen });
        staged.items.push(...items);
        // The batch asserts the revisions the copy has: no read needs to confirm it.
        this.memory.usedUnchecked = false;
      },
      alone: () => this.committedSoFar(),
    };
    const ctx = this.context(audit, directory, staging);
    const ran = await this.queue.run(async () => {
      const running: Running = { epoch: combined.epoch, staged: null };
      this.running = running;
      const { memory } = this;
      memory.trustCopy = true;
      memory.usedUnchecked = false;
      try {
        // An error after staging commits what was staged, as a write that committed and then threw always did.
        const result = await answerable(ctx, await capture(() => task(ctx)));
        // A refusal or a no-op has no batch to assert the copy it was computed on.
        if (!running.staged) await this.confirmCopy();
        const settled = combined.settleAfter(running.staged, running.epoch);
        settled.catch(() => undefined); // awaited below, once the queue has let go
        return { result, settled };
      } catch (error) {
        if (isRetryAlone(error)) return null;
        throw error;
      } finally {
        memory.trustCopy = false;
      }
    });
    if (!ran) return this.retryAlone(combined, job);
    try {
      await ran.settled;
    } catch (error) {
      if (isRetryAlone(error)) return this.retryAlone(combined, job);
      throw error;
    }
    this.afterCommit(ctx);
    return ran.result;
  }

  private retryAlone<T>(combined: CombinedCommits, job: Job<T>) {
    combined.counts.retriedAlone++;
    return this.writeAlone(job);
  }

  private afterCommit(ctx: WriterContext) {
    for (const effect of ctx.whenCommitted?.splice(0) ?? []) effect();
    deliverInBackground(this.state, { db: this.db, config: getConfig(this.env) }, ctx.notificationIds);
    this.hooks.afterWrite?.();
  }
}
