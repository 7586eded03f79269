import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import { meteredD1, newMeter } from "../db/metered-d1";
import { getConfig, type Env } from "../lib/env";
import { describeForLog } from "../lib/log";
import { capture, unwrap } from "../lib/write-result";
import type { AuditContext } from "../services/audit/audit-trail";
import { isCommandName, writerCommands } from "../services/networks/commands";
import type { WriterContext } from "../services/networks/commit";
import { type ConfigWanted, readConfigs, readProbes } from "../services/networks/memory/config-reads";
import { NetworkMemory } from "../services/networks/memory/network-memory";
import { RevisionWaiters } from "../services/networks/memory/revision-waiters";
import { mergeHeartbeats, writeHeartbeats, type HeartbeatWrite } from "../services/networks/operations/heartbeats";
import { groupWriterName, type WriterRpc, type WriterStats, writerStub } from "../services/networks/writer";
import { processDeliveries } from "../services/notifications/queue";
import { GroupCommit } from "./group-commit";
import { SerialQueue } from "./serial-queue";

/** How often a writer evaluates its network's pools while one can fail over (about 2 s: failover well inside 15 s). */
const POOL_CHECK_MS = 2000;
const POOL_NETWORK_KEY = "poolNetworkId";

/**
 * The single writer of one network (or, named "group:<id>", of a group's network names and CIDRs).
 * It keeps only what a single writer is for: the queue that runs one command at a time to its commit,
 * error capture across the RPC boundary, and delegation to the network domain (services/networks).
 * It holds the network in memory (services/networks/memory), so config reads come here too.
 */
export class NetworkWriter extends DurableObject<Env> implements WriterRpc {
  private readonly queue = new SerialQueue();
  /** What this writer's commands and reads cost in D1, as D1 reports it (stats()). */
  private readonly meter = newMeter();
  private readonly db = createDb(meteredD1(this.env.DB, this.meter));
  /** The network's rows, held between writes (a write reads only what it changes) and serving config reads. */
  private readonly memory = new NetworkMemory((task) => this.queue.run(task));
  /** Devices long-polling for a new routing revision; woken after every command. */
  private readonly waiters = new RevisionWaiters(() => this.memory.heldRoutingRevision());
  /** Heartbeats bypass the serial queue (they touch no routing state) and share D1 batches under load. */
  private readonly heartbeats = new GroupCommit<HeartbeatWrite>((items) => writeHeartbeats(this.db, items), mergeHeartbeats);

  /** Answers the command's value with the domain events it committed (its audit rows went in the same batch). */
  run(command: string, args: unknown[], audit?: AuditContext) {
    if (!isCommandName(command)) throw new Error(`Unknown writer command: ${command}`);
    const handler = writerCommands[command] as (ctx: WriterContext, ...args: unknown[]) => Promise<unknown>;
    const context: WriterContext = {
      env: this.env,
      db: this.db,
      memory: this.memory,
      audit,
      events: [],
      notificationIds: [],
      inGroup: (groupId, name, groupArgs) => unwrap(writerStub(this.env, groupWriterName(groupId)).run(name, groupArgs, audit)),
      schedulePoolChecks: (networkId, needed) => this.schedulePoolChecks(networkId, needed),
    };
    return this.queue.run(async () => {
      const result = await capture(() => handler(context, ...args));
      this.deliverAfterAnswer(context.notificationIds);
      this.waiters.wake();
      return result.ok ? { ...result, events: context.events } : result;
    });
  }

  recordHeartbeat(heartbeat: HeartbeatWrite) {
    return capture(() => this.heartbeats.submit(heartbeat.nodeId, heartbeat));
  }

  readConfigs(networkId: string, wanted: ConfigWanted[]) {
    return capture(() => readConfigs(this.memory, this.db, networkId, wanted));
  }

  readProbes(networkId: string, nodeIds: string[]) {
    return capture(() => readProbes(this.memory, this.db, networkId, nodeIds));
  }

  awaitRoutingChange(networkId: string, since: number, ms: number) {
    return capture(async () => {
      await this.memory.forRead(this.db, networkId); // holds the network, so the waiter compares with it
      await this.waiters.wait(since, ms);
    });
  }

  /** Since this writer started: D1 statements and rows, full loads of the network, what it holds; its queue now. */
  async stats(): Promise<WriterStats> {
    return { ...this.meter, ...this.memory.stats(), queueDepth: this.queue.depth };
  }

  /** The pool clock: evaluates the network's pools (services/networks/operations/pool-failover.ts), which sets the next alarm. */
  override async alarm() {
    const networkId = await this.ctx.storage.get<string>(POOL_NETWORK_KEY);
    if (!networkId) return;
    // An unexpected error throws, and the runtime retries the alarm; a refusal keeps the clock unless the network is gone.
    const result = await this.run("evaluatePools", [networkId]);
    if (result.ok) return;
    if (result.error.code === "not_found") await this.ctx.storage.delete(POOL_NETWORK_KEY);
    else await this.ctx.storage.setAlarm(Date.now() + POOL_CHECK_MS);
  }

  /** While a pool can fail over, an alarm every POOL_CHECK_MS: stale reports are noticed only by a clock. */
  private async schedulePoolChecks(networkId: string, needed: boolean) {
    if (!needed) {
      await this.ctx.storage.deleteAlarm();
      return;
    }
    await this.ctx.storage.put(POOL_NETWORK_KEY, networkId);
    const pending = await this.ctx.storage.getAlarm();
    const now = Date.now();
    if (pending !== null && pending > now && pending <= now + POOL_CHECK_MS) return;
    await this.ctx.storage.setAlarm(now + POOL_CHECK_MS);
  }

  /** The first delivery attempt of notifications a write queued; the minute cron retries what fails. */
  private deliverAfterAnswer(eventIds: string[]) {
    if (eventIds.length === 0) return;
    const work = processDeliveries({ db: this.db, config: getConfig(this.env) }, { eventIds }).catch((error: unknown) =>
      console.error(JSON.stringify({ background: "notifications", ...describeForLog(error) })),
    );
    this.ctx.waitUntil(work);
  }
}
