import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type GroupRole, gateways, memberships } from "../../db/schema";
import type { Env } from "../../lib/env";
import { gatewayAssignedToGroup } from "../live-authority";
import { type EffectiveSettings, loadEffectiveSettings } from "../settings/settings";
import { type EgressClaim, overlappingEgress } from "./egress-claims";
import type { HeldNetwork } from "./memory/held-network";

/**
 * One write's reads of rows its network's writes never change: the admin settings, a member's role, the
 * gateway inventory and other networks' egress claims. They read D1 as committed, without waiting for the
 * batches staged before the write (writer/combined-commits.ts), and each is read once a write: a writer may
 * start them before the write takes its turn in the queue (`warm`), so they overlap with the writes ahead of
 * it instead of holding the queue. What they decide is checked again by the write's batch where it guards
 * access (the acting user's authority, the gateway assignment); settings and egress are as documented for
 * every write (docs/identity.md, "Gateway assignment").
 */
export class DirectoryReads {
  private readonly started = new Map<string, Promise<unknown>>();

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

  settings(): Promise<EffectiveSettings> {
    return this.once("settings", () => loadEffectiveSettings(this.env, this.db));
  }

  /** The user's role in the group (null: none). */
  role(groupId: string, userId: string): Promise<GroupRole | null> {
    return this.once(`role ${groupId} ${userId}`, async () => {
      const found = await this.db
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.groupId, groupId), eq(memberships.userId, userId)))
        .get();
      return found?.role ?? null;
    });
  }

  /** The inventory gateways these nodes run on, by id (status, region, whether the network's group may use them). */
  inventory(held: HeldNetwork, nodeIds: Iterable<string>) {
    const ids = [...new Set([...nodeIds].map((id) => held.nodes.get(id)?.gatewayId).filter((id): id is string => !!id))].sort();
    const groupId = held.network.groupId;
    return this.once(`inventory ${groupId} ${ids.join(",")}`, async () => {
      const rows =
        ids.length === 0
          ? []
          : await this.db
              .select({
                id: gateways.id,
                status: gateways.status,
                regionId: gateways.regionId,
                assigned: sql<boolean>`${gatewayAssignedToGroup(groupId, sql`${gateways.id}`)}`.mapWith(Boolean),
              })
              .from(gateways)
              .where(inArray(gateways.id, ids))
              .all();
      return new Map(rows.map((gateway) => [gateway.id, gateway]));
    });
  }

  /** The first gateway of the claim where another network already routes an overlapping range out, or null. */
  egress(networkId: string, claim: EgressClaim): Promise<string | null> {
    const key = `egress ${networkId} ${claim.destinationCidr} ${[...claim.gatewayIds].sort().join(",")}`;
    return this.once(key, () => overlappingEgress(this.db, networkId, claim));
  }
}
