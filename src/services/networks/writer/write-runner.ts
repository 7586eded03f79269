import { createDb } from "../../../db/client";
import { meteredD1, newMeter } from "../../../db/metered-d1";
import { getConfig, type Env } from "../../../lib/env";
import { describeForLog } from "../../../lib/log";
import { SerialQueue } from "../../../lib/serial-queue";
import { capture, type WriteResult } from "../../../lib/write-result";
import type { AuditContext } from "../../audit/audit-trail";
import { processDeliveries } from "../../notifications/queue";
import type { WriterContext } from "../commit";
import type { HotStore } from "../hot/hot-store";
import type { HeldNetwork } from "../memory/held-network";
import { NetworkMemory } from "../memory/network-memory";
import type { Topology } from "../routing";

/** What a writer adds around each write: after it (waking long polls) and the clocks it may keep (pools, access expiry). */
export interface WriterHooks {
  afterWrite?(): void;
  schedulePoolChecks?(networkId: string, needed: boolean): Promise<void>;
  scheduleAccessExpiry?(networkId: string, at: number | null): Promise<void>;
  /** The writer's hot state, for writes that remove what it holds rows of. */
  hot?: HotStore;
}

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
  /** The network's rows, held between writes (a write reads only what it changes) and serving config reads. */
  readonly memory = new NetworkMemory((task) => this.queue.run(task));

  constructor(
    private readonly env: Env,
    private readonly state: DurableObjectState,
    private readonly hooks: WriterHooks = {},
  ) {
    this.db = createDb(meteredD1(env.DB, this.meter));
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

  /** Runs one write in the queue; an API error it throws comes back as data (unwrap throws it again). */
  write<T>(audit: AuditContext | undefined, task: (ctx: WriterContext) => Promise<T>): Promise<WriteResult<T>> {
    const ctx: WriterContext = {
      env: this.env,
      db: this.db,
      memory: this.memory,
      ...(this.hooks.hot ? { hot: this.hooks.hot } : {}),
      audit,
      notificationIds: [],
      schedulePoolChecks: this.hooks.schedulePoolChecks,
      scheduleAccessExpiry: this.hooks.scheduleAccessExpiry,
    };
    return this.queue.run(async () => {
      const result = await capture(() => task(ctx));
      this.deliverAfterAnswer(ctx.notificationIds);
      this.hooks.afterWrite?.();
      return result;
    });
  }

  /** The first delivery attempt of notifications a write queued; the minute cron retries what fails. */
  private deliverAfterAnswer(eventIds: string[]) {
    if (eventIds.length === 0) return;
    const work = processDeliveries({ db: this.db, config: getConfig(this.env) }, { eventIds }).catch((error: unknown) =>
      console.error(JSON.stringify({ background: "notifications", ...describeForLog(error) })),
    );
    this.state.waitUntil(work);
  }
}
