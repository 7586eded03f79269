import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import { getConfig, type Env } from "../lib/env";
import { describeForLog } from "../lib/log";
import { capture, unwrap } from "../lib/write-result";
import type { AuditContext } from "../services/audit/audit-trail";
import { isCommandName, writerCommands } from "../services/networks/commands";
import type { WriterContext } from "../services/networks/commit";
import { mergeHeartbeats, writeHeartbeats, type HeartbeatWrite } from "../services/networks/operations/heartbeats";
import { groupWriterName, type WriterRpc, writerStub } from "../services/networks/writer";
import { processDeliveries } from "../services/notifications/queue";
import { GroupCommit } from "./group-commit";
import { SerialQueue } from "./serial-queue";

/**
 * The single writer of one network (or, named "group:<id>", of a group's network names and CIDRs).
 * It keeps only what a single writer is for: the queue that runs one command at a time to its commit,
 * error capture across the RPC boundary, and delegation to the network domain (services/networks).
 * Reads never come here.
 */
export class NetworkWriter extends DurableObject<Env> implements WriterRpc {
  private readonly queue = new SerialQueue();
  private readonly db = createDb(this.env.DB);
  /** Heartbeats bypass the serial queue (they touch no routing state) and share D1 batches under load. */
  private readonly heartbeats = new GroupCommit<HeartbeatWrite>((items) => writeHeartbeats(this.db, items), mergeHeartbeats);

  /** Answers the command's value with the domain events it committed (its audit rows went in the same batch). */
  run(command: string, args: unknown[], audit?: AuditContext) {
    if (!isCommandName(command)) throw new Error(`Unknown writer command: ${command}`);
    const handler = writerCommands[command] as (ctx: WriterContext, ...args: unknown[]) => Promise<unknown>;
    const context: WriterContext = {
      env: this.env,
      db: this.db,
      audit,
      events: [],
      notificationIds: [],
      inGroup: (groupId, name, groupArgs) => unwrap(writerStub(this.env, groupWriterName(groupId)).run(name, groupArgs, audit)),
    };
    return this.queue.run(async () => {
      const result = await capture(() => handler(context, ...args));
      this.deliverAfterAnswer(context.notificationIds);
      return result.ok ? { ...result, events: context.events } : result;
    });
  }

  recordHeartbeat(heartbeat: HeartbeatWrite) {
    return capture(() => this.heartbeats.submit(heartbeat.nodeId, heartbeat));
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
