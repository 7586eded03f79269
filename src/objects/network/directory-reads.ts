import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { BatchItem } from "drizzle-orm/batch";
import { type adminSettings, type GroupRole, gateways, memberships, users } from "../../db/schema";
import type { Env } from "../../lib/env";
import { type EffectiveSettings, effectiveSettings, settingsFromRow, settingsQuery } from "../../services/settings/settings";
import { claimsEgress, type EgressClaim, type OtherNode, otherNodesQuery, overlapAmong } from "./egress-claims";
import type { HeldNetwork } from "./memory/held-network";
import type { KeptAuthority } from "./authority/kept-authority";
import { callerLive, gatewayAssignedToGroup, type WriteCaller } from "../../services/live-authority";
import type { CallerStanding } from "./authority/write-caller";

/** Starts a write's directory reads before its turn in the writer's queue, given the copy held then. */
export type Warm = (reads: DirectoryReads, held: HeldNetwork | null, kept: KeptAuthority) => void;

/**
 * One write's reads of rows its network's writes never change: the admin settings, a member's role, the
 * gateway inventory and other networks' egress claims. They read D1 as committed, without waiting for the
 * batches staged before the write (runner/combined-commits.ts), and each is read once a write: a writer may
 * start them before the write takes its turn in the queue (`warm`), so they overlap with the writes ahead of
 * it instead of holding the queue. What they decide is checked again by the write's batch where it guards
 * access (the acting user's authority, the gateway assignment); settings and egress are as documented for
 * every write (docs/identity.md, "Gateway assignment").
 */
export class DirectoryReads {
  private readonly started = new Map<string, Promise<unknown>>();
  /** Reads asked for in the same turn of the event loop, sent to D1 together as one batch (one round trip). */
  private waiting: { query: BatchItem<"sqlite">; settle: (rows: unknown) => void; fail: (error: unknown) => void }[] = [];

  constructor(
    private readonly env: Env,
    /** D1 as committed (not the staging binding). */
    readonly db: Db,
  ) {}

  /** The read under `key`, started now unless this write started it already. */
  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let started = this.started.get(key) as Promise<T> | undefined;
    if (!started) {
      started = read();
      started.catch(() => undefined); // a warmed read nobody asks for again must not reject unhandled
      this.started.set(key, started);
    }
    return started;
  }

  /**
   * One read, sent with the others asked for before the event loop turns: a write's reads cost one D1 round
   * trip together, which on D1's one thread is what a write's cost mostly is.
   */
  private batched<Rows>(query: BatchItem<"sqlite">): Promise<Rows> {
    return new Promise<Rows>((settle, fail) => {
      this.waiting.push({ query, settle: settle as (rows: unknown) => void, fail });
      if (this.waiting.length === 1) queueMicrotask(() => void this.sendWaiting());
    });
  }

  private async sendWaiting() {
    const waiting = this.waiting;
    this.waiting = [];
    const [first, ...rest] = waiting.map((read) => read.query);
    try {
      const results = await this.db.batch([first!, ...rest]);
      for (const [index, read] of waiting.entries()) read.settle(results[index]);
    } catch (error) {
      for (const read of waiting) read.fail(error);
    }
  }

  settings(): Promise<EffectiveSettings> {
    return this.once("settings", async () => {
      const rows = await this.batched<(typeof adminSettings.$inferSelect)[]>(settingsQuery(this.db));
      return effectiveSettings(this.env, settingsFromRow(rows[0]).settings);
    });
  }

  /**
   * The caller's role in the group (null: none), and whether the session it wrote with is live (true when
   * it names none): the write's access check in the writer (write-authority.ts), one row.
   */
  caller(groupId: string, caller: WriteCaller): Promise<CallerStanding> {
    return this.once(`caller ${groupId} ${caller.userId} ${caller.sessionId ?? ""}`, async () => {
      const query = this.db
        .select({ role: memberships.role, live: callerLive(caller) })
        .from(users)
        .leftJoin(memberships, and(eq(memberships.groupId, groupId), eq(memberships.userId, users.id)))
        .where(eq(users.id, caller.userId));
      const [found] = await this.batched<{ role: GroupRole | null; live: boolean }[]>(query);
      // No user row: no role, and a session named for nobody is not live.
      return { role: found?.role ?? null, live: found ? !!found.live : !caller.sessionId };
    });
  }

  /** The inventory gateways these nodes run on, by id (status, region, whether the network's group may use them). */
  inventory(held: HeldNetwork, nodeIds: Iterable<string>) {
    const ids = [...new Set([...nodeIds].map((id) => held.nodes.get(id)?.gatewayId).filter((id): id is string => !!id))].sort();
    const groupId = held.network.groupId;
    return this.once(`inventory ${groupId} ${ids.join(",")}`, async () => {
      const query = this.db
        .select({
          id: gateways.id,
          status: gateways.status,
          regionId: gateways.regionId,
          assigned: sql<boolean>`${gatewayAssignedToGroup(groupId, sql`${gateways.id}`)}`.mapWith(Boolean),
        })
        .from(gateways)
        .where(inArray(gateways.id, ids));
      const rows = ids.length === 0 ? [] : await this.batched<Awaited<typeof query>>(query);
      return new Map(rows.map((gateway) => [gateway.id, gateway]));
    });
  }

  /** The first gateway of the claim where another network already routes an overlapping range out, or null. */
  egress(networkId: string, claim: EgressClaim): Promise<string | null> {
    const key = `egress ${networkId} ${claim.destinationCidr} ${[...claim.gatewayIds].sort().join(",")}`;
    return this.once(key, async () => {
      if (!claimsEgress(claim)) return null;
      const others = await this.batched<OtherNode[]>(otherNodesQuery(this.db, networkId, claim));
      return overlapAmong(this.db, claim, others);
    });
  }
}
