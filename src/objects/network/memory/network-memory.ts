import { eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { type GroupRole, networks } from "../../../db/schema";
import { notFound } from "../../../lib/errors";
import type { NetworkRow } from "../../../db/rows";
import { loadNetworkState } from "../state";
import { callerLive, type WriteCaller } from "../../../services/live-authority";
import type { CallerStanding } from "../authority/write-caller";
import { HeldNetwork } from "./held-network";
import { TopologyCache } from "./topology-cache";

/** Runs a task after every write queued before it, and before any queued after (the writer's queue). */
export type Serialize = <T>(task: () => Promise<T>) => Promise<T>;

const revisionsOf = (db: Db, networkId: string) =>
  db
    .select({ routingRevision: networks.routingRevision, dnsRevision: networks.dnsRevision })
    .from(networks)
    .where(eq(networks.id, networkId))
    .get();

/**
 * The network a writer holds in memory. The writer is the network's only writer of routing and DNS
 * rows, so it can apply each committed write to its copy instead of reloading: a write reads the
 * network's row (its revisions) and nothing that grows with the network. It reloads everything only
 * when D1's revisions disagree with its own (after a restart, or a change made outside the writer).
 *
 * Reloads run in the writer's queue, never beside a write: a write applies its change to the copy
 * after its commit, and a copy loaded in between would count that change twice.
 *
 * While writes committed together are on their way to D1 (`ahead()`: runner/combined-commits.ts), the copy
 * is ahead of D1: a write takes it as it is (its batch asserts the revisions), and a read waits in the queue,
 * where the writer lets those batches commit first, so nothing uncommitted is served.
 */
export class NetworkMemory {
  private held: HeldNetwork | null = null;
  readonly topologies = new TopologyCache();
  /** Full loads since the writer started: the figure tests and the benchmark read. */
  loads = 0;

  constructor(
    private readonly serialize: Serialize,
    /** True while the copy holds changes whose batch has not committed yet. */
    private readonly ahead: () => boolean = () => false,
  ) {}

  /**
   * Set by the writer around a write whose batch asserts the revisions it ran on (a combined commit): such a
   * write may take the copy without reading D1's row, since a copy D1 has moved away from fails its batch and
   * the write runs again alone. `usedUnchecked` tells the writer a write did, so that an outcome with no
   * batch to assert it (a refusal, a no-op) is first confirmed against D1 (`confirmUnchecked`).
   */
  trustCopy = false;
  usedUnchecked = false;

  /** For a write, already in the queue: one row read, and the copy (reloaded when it disagrees with D1). */
  async forWrite(db: Db, networkId: string): Promise<HeldNetwork> {
    const quick = this.withoutRead(networkId);
    if (quick) return quick;
    return this.fromRow(db, networkId, await db.select().from(networks).where(eq(networks.id, networkId)).get());
  }

  /**
   * After a write took the copy without reading D1 (`usedUnchecked`) and now reads D1, commits alone or answers
   * without a batch to assert it: whether D1's revisions are the copy's (one row read, only then). False drops
   * the copy: the writer runs the write again alone, on a reload.
   */
  async confirmUnchecked(db: Db): Promise<boolean> {
    if (!this.usedUnchecked) return true;
    this.usedUnchecked = false;
    const held = this.held;
    const revisions = held ? await revisionsOf(db, held.network.id) : undefined;
    if (held && revisions && sameRevisions(held.network, revisions)) return true;
    this.forget();
    return false;
  }

  /** The copy when a write may take it without reading D1's row (ahead of D1, or trusted): null otherwise. */
  withoutRead(networkId: string): HeldNetwork | null {
    const ahead = this.aheadOf(networkId);
    if (ahead) return ahead;
    if (!this.trustCopy || this.held?.network.id !== networkId) return null;
    this.usedUnchecked = true;
    return this.held;
  }

  /** The copy, when it is of this network and ahead of D1 (D1's row would only disagree with it). */
  private aheadOf(networkId: string): HeldNetwork | null {
    return this.ahead() && this.held?.network.id === networkId ? this.held : null;
  }

  /**
   * forWrite for a user's write, with the caller's role in the network's group (null: none) and whether its
   * session is live read in the same query: the write's access check (authority/write-authority.ts) costs no row
   * of its own. A network that is not there is `held: null` (the caller learns 404 once its session is known live).
   */
  async forWriteBy(db: Db, networkId: string, caller: WriteCaller): Promise<{ held: HeldNetwork | null } & CallerStanding> {
    const role = sql<GroupRole | null>`(select m.role from memberships m where m.group_id = ${networks.groupId} and m.user_id = ${caller.userId})`;
    const found = await db
      .select({ ...getTableColumns(networks), callerRole: role.as("caller_role"), callerLive: callerLive(caller) })
      .from(networks)
      .where(eq(networks.id, networkId))
      .get();
    if (!found) {
      this.forget();
      return { held: null, role: null, live: true };
    }
    const { callerRole, callerLive: live, ...row } = found;
    return { held: await this.fromRow(db, networkId, row), role: callerRole, live: !!live };
  }

  private async fromRow(db: Db, networkId: string, row: NetworkRow | undefined): Promise<HeldNetwork> {
    if (!row) {
      this.forget();
      throw notFound("Network");
    }
    const held = this.heldAt(networkId, row);
    if (!held) return this.load(db, networkId);
    held.setNetwork(row);
    return held;
  }

  /**
   * For a read: one row read. When D1 is ahead of the copy a write is between its commit and its apply,
   * or something changed outside the writer: the check is repeated in the queue, after that write.
   */
  async forRead(db: Db, networkId: string): Promise<HeldNetwork> {
    const check = async () => {
      const revisions = await revisionsOf(db, networkId);
      if (!revisions) throw notFound("Network");
      return this.heldAt(networkId, revisions);
    };
    if (this.ahead()) return this.serialize(async () => (await check()) ?? this.load(db, networkId));
    return (await check()) ?? this.serialize(async () => (await check()) ?? this.load(db, networkId));
  }

  /** The copy, if it is of this network at these revisions. */
  private heldAt(networkId: string, revisions: { routingRevision: number; dnsRevision: number }): HeldNetwork | null {
    const held = this.held;
    return held && held.network.id === networkId && sameRevisions(held.network, revisions) ? held : null;
  }

  /** The copy as held now, whatever D1 holds (a write's reads may be started from it before its turn). */
  heldCopy(): HeldNetwork | null {
    return this.held;
  }

  /** The network as held (with its revisions), if any: what a staged write ran on. */
  heldNetwork(): NetworkRow | null {
    return this.held?.network ?? null;
  }

  /** The held copy's routing revision, without reading D1 (long polls compare against it). */
  heldRoutingRevision(): number | null {
    return this.held?.network.routingRevision ?? null;
  }

  stats() {
    return { loads: this.loads, heldNodes: this.held?.nodes.size ?? 0, topologiesKept: this.topologies.size };
  }

  /** A network row written for this network by another writer (its group's): held as is. */
  adopt(row: NetworkRow): void {
    if (this.held && this.held.network.id === row.id) this.held.setNetwork(row);
  }

  /** The copy is dropped (the network was deleted, or a change went around it); the next use reloads. */
  forget(): void {
    this.held = null;
    this.topologies.clear();
  }

  private async load(db: Db, networkId: string): Promise<HeldNetwork> {
    this.forget();
    const held = new HeldNetwork(await loadNetworkState(db, networkId));
    this.loads++;
    this.held = held;
    return held;
  }
}

const sameRevisions = (a: { routingRevision: number; dnsRevision: number }, b: { routingRevision: number; dnsRevision: number }) =>
  a.routingRevision === b.routingRevision && a.dnsRevision === b.dnsRevision;
