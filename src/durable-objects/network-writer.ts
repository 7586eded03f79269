import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import type { Env } from "../lib/env";
import { capture } from "../lib/write-result";
import { isCommandName, writerCommands, type WriterContext } from "../services/networks/commands";
import { mergeHeartbeats, writeHeartbeats, type HeartbeatWrite } from "../services/networks/operations/heartbeats";
import type { WriterRpc } from "../services/networks/writer-rpc";
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
  private readonly context: WriterContext = { env: this.env, db: createDb(this.env.DB) };
  /** Heartbeats bypass the serial queue (they touch no routing state) and share D1 batches under load. */
  private readonly heartbeats = new GroupCommit<HeartbeatWrite>((items) => writeHeartbeats(this.context.db, items), mergeHeartbeats);

  run(command: string, args: unknown[]) {
    if (!isCommandName(command)) throw new Error(`Unknown writer command: ${command}`);
    const handler = writerCommands[command] as (ctx: WriterContext, ...args: unknown[]) => Promise<unknown>;
    return this.queue.run(() => capture(() => handler(this.context, ...args)));
  }

  recordHeartbeat(heartbeat: HeartbeatWrite) {
    return capture(() => this.heartbeats.submit(heartbeat.nodeId, heartbeat));
  }
}
