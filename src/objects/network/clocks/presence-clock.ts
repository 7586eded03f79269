import type { Db } from "../../../db/client";
import { type Env, getConfig } from "../../../lib/env";
import { describeForLog } from "../../../lib/log";
import { capture } from "../../../lib/write-result";
import { processDeliveries } from "../../../services/notifications/queue";
import { configInForce } from "../../../services/settings/settings";
import type { WriteRunner } from "../runner/write-runner";
import type { WriterAlarm } from "./writer-alarm";
import type { NetworkHot } from "../hot/network-hot";
import { judgePresence, type PresenceChange } from "../hot/presence-judge";
import { deviceOwners, importPresence, statsStatement, TRANSITIONS_PER_BATCH, transitionStatements } from "../hot/presence-outbox";
import { cutoffs } from "../../../core/presence-rules";
import { hotStats } from "../hot/presence-stats";
import { PresenceStore } from "../hot/presence-store";

/** How often a network's object judges its device nodes while one is online (the cron's minute). */
export const PRESENCE_CHECK_MS = 60_000;
/** A beat from a node held offline or never judged is checked this soon (a few such beats are judged together). */
export const PRESENCE_SOON_MS = 5_000;
/** hot_meta: the /metrics figures last written to D1, so an unchanged check writes no row. */
const STATS_WRITTEN = "hotStatsWritten";

/**
 * Presence of the network's device nodes, judged by its object from its own rows (docs/notifications.md,
 * "Where presence is judged"): the writer's one alarm runs a check about once a minute while a device node is
 * online; each check writes D1 only what changed (presence transitions, their events, the /metrics row), so a
 * network whose devices beat steadily costs D1 no row a beat. The cron judges every other node from D1.
 */
export class PresenceClock {
  readonly store: PresenceStore;
  /** Transitions written to D1 since the object started (the writer's stats). */
  transitions = 0;
  /** A check is scheduled (memory only: after a restart the first beat looks at the alarm once). */
  private armed = false;
  /** Checks run one at a time (the alarm and a test's call may meet). */
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly env: Env,
    private readonly state: DurableObjectState,
    private readonly writes: WriteRunner,
    private readonly hot: NetworkHot,
    private readonly alarm: WriterAlarm,
  ) {
    this.store = new PresenceStore(state.storage.sql);
  }

  /**
   * A device's beat (`nodeId`) or a gateway agent's report: a check stays scheduled, and a beat from a node not
   * held online brings it within PRESENCE_SOON_MS (node.online is not a minute late). Never fails the beat.
   */
  async noticeReport(networkId: string, nodeId?: string) {
    try {
      const fresh = nodeId !== undefined && this.store.state(nodeId) !== "online";
      if (this.armed && !fresh) return;
      const pending = await this.alarm.dueAt("presence");
      const wanted = Date.now() + (fresh ? PRESENCE_SOON_MS : PRESENCE_CHECK_MS);
      if (pending === null || pending > wanted) await this.alarm.set(networkId, "presence", wanted);
      this.armed = true;
    } catch (error) {
      console.error(JSON.stringify({ presence: "schedule", ...describeForLog(error) }));
    }
  }

  /** The alarm's run (and tests' at a chosen clock, `now` in ms): judge, write what changed, schedule the next. */
  check(networkId: string, now?: number) {
    const run = this.running.then(() => capture(() => this.judge(networkId, new Date(now ?? Date.now()))));
    this.running = run;
    return run;
  }

  private async judge(networkId: string, now: Date) {
    const db = this.writes.db;
    const held = await this.writes.memory.forRead(db, networkId);
    const hot = await this.hot.open(db, networkId);
    await importPresence(db, hot, this.store, networkId);
    const at = cutoffs(await configInForce(getConfig(this.env), db), now);
    const previous = this.store.rows();
    for (const nodeId of previous.keys()) {
      if (held.nodes.has(nodeId)) continue;
      this.store.delete(nodeId); // a removed node: D1's row went with it
      previous.delete(nodeId);
    }
    const beats = new Map(hot.nodes().map((row) => [row.nodeId, row]));
    const devices = [...held.nodes.values()].filter((node) => node.deviceId).map((node) => ({ node, hot: beats.get(node.id) }));
    const { changes, more } = judgePresence({
      networkId,
      groupId: held.network.groupId,
      routingRevision: held.network.routingRevision,
      devices,
      previous,
      at,
    });
    const after = new Map(previous);
    for (const change of changes) after.set(change.row.nodeId, change.row);
    const stats = hotStats(held, { nodes: beats, tunnels: hot.allTunnels() }, after, now);
    const statsText = JSON.stringify(stats);
    const statsChanged = hot.meta(STATS_WRITTEN) !== statsText;

    const announced = changes.filter((change) => change.announce);
    const owners = await deviceOwners(
      db,
      announced.filter((change) => change.events.length > 0).map((change) => change.row.nodeId),
    );
    const eventIds: string[] = [];
    const batches: PresenceChange[][] = [];
    for (let start = 0; start < announced.length; start += TRANSITIONS_PER_BATCH)
      batches.push(announced.slice(start, start + TRANSITIONS_PER_BATCH));
    if (batches.length === 0 && statsChanged) batches.push([]);
    for (const [index, batch] of batches.entries()) {
      const parts = batch.map((change) => transitionStatements(db, change, owners.get(change.row.nodeId) ?? null, at.now));
      const statements: Parameters<Db["batch"]>[0][number][] = parts.flatMap((part) => [...part.events.statements, ...part.writes]);
      if (index === batches.length - 1 && statsChanged) statements.push(statsStatement(db, networkId, stats, at.now));
      const [first, ...rest] = statements;
      if (first) await db.batch([first, ...rest]);
      // Kept here only once D1 holds them: a failed batch is judged again by the next check.
      for (const change of batch) this.store.put(change.row);
      this.transitions += batch.length;
      for (const part of parts) eventIds.push(...part.events.ids);
    }
    if (statsChanged) hot.setMeta(STATS_WRITTEN, statsText);
    for (const change of changes) if (!change.announce) this.store.put(change.row); // drift clocks: the object's alone
    this.deliver(eventIds);

    const online = [...after.values()].some((row) => row.state === "online");
    const nextCheckAt = more ? Date.now() + PRESENCE_SOON_MS : online ? Date.now() + PRESENCE_CHECK_MS : null;
    await this.alarm.set(networkId, "presence", nextCheckAt);
    this.armed = nextCheckAt !== null;
    return { transitions: announced.length, events: eventIds.length, statsWritten: statsChanged, nextCheckAt };
  }

  /** The first delivery attempt of the events a check raised, after it answers (as a write's); the cron retries. */
  private deliver(eventIds: string[]) {
    if (eventIds.length === 0) return;
    const work = processDeliveries({ db: this.writes.db, config: getConfig(this.env) }, { eventIds }).catch((error: unknown) =>
      console.error(JSON.stringify({ background: "notifications", ...describeForLog(error) })),
    );
    this.state.waitUntil(work);
  }
}
