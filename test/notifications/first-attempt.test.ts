// A write's event gets its first delivery attempt right after the answer (services/notifications/queue.ts
// deliverInBackground), but only when the event queued a delivery: with no channel subscribed, the attempt
// would be one more D1 statement a write for nothing. Checked on commit() itself, committing alone and staged
// into a combined batch (runner/combined-commits.ts), whose results reach the write that staged them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { commit, type Staging, type WriterContext } from "../../src/objects/network/commit";
import { DirectoryReads } from "../../src/objects/network/directory-reads";
import { NetworkMemory } from "../../src/objects/network/memory/network-memory";
import { bumpRoutingRevision } from "../../src/objects/network/state";
import { CombinedCommits, type Staged } from "../../src/objects/network/runner/combined-commits";
import { countRows, revisionsOf } from "../helpers/state";
import { ownerWithNode, webhookChannel } from "./support/notify-helpers";

const db = createDb(env.DB);

function contextOf(staging?: Staging): WriterContext {
  return {
    env,
    db,
    directory: new DirectoryReads(env, db),
    memory: new NetworkMemory((task) => task()),
    notificationIds: [],
    staging,
  };
}

/** A policy.changed raised by a revision bump (what a policy write raises, without the policy). */
const policyChanged = (network: { id: string; groupId: string }) => ({
  action: "policy.updated",
  resourceId: null,
  networkId: network.id,
  groupId: network.groupId,
  notify: {
    type: "policy.changed" as const,
    networkId: network.id,
    groupId: network.groupId,
    subjectId: "rp_first_attempt",
    data: { action: "updated" },
  },
});

/** commit() alone: the ids it asks a first attempt for. */
async function committedAlone(network: { id: string; groupId: string }) {
  const ctx = contextOf();
  await commit(ctx, [bumpRoutingRevision(db, network.id)], policyChanged(network));
  return ctx.notificationIds;
}

/** commit() staged, then the staged batch committed by CombinedCommits as the writer's flush does. */
async function committedStaged(network: { id: string; groupId: string }) {
  const { routing, dns } = await revisionsOf(network.id);
  const staged: Staged = {
    networkId: network.id,
    before: { routingRevision: routing, dnsRevision: dns },
    items: [],
    guards: new Map(),
    watchers: [],
  };
  const ctx = contextOf({
    stage: (items, seen, guard) => {
      if (guard) staged.guards.set(guard.key, guard.item);
      if (seen) staged.watchers.push({ at: staged.items.length, count: items.length, seen });
      staged.items.push(...items);
    },
    alone: async () => undefined,
  });
  await commit(ctx, [bumpRoutingRevision(db, network.id)], policyChanged(network));
  expect(ctx.notificationIds).toEqual([]); // nothing is asked for before the batch committed
  await new CombinedCommits(db, () => undefined).settleAfter(staged, 0);
  return ctx.notificationIds;
}

describe("a write's first delivery attempt", () => {
  it("is asked for only when its event queued a delivery, whether it committed alone or staged", async () => {
    const { owner, network } = await ownerWithNode();
    // This network's deliveries only: files share one D1, and earlier files' webhooks may still be pending.
    const pending = () =>
      countRows(
        "select count(*) as n from notification_deliveries d join notification_events e on e.id = d.event_id where d.status = 'pending' and e.network_id = ?",
        network.id,
      );

    // Nobody subscribes: the events are stored, no delivery is queued, no attempt is asked for.
    expect(await committedAlone(network)).toEqual([]);
    expect(await committedStaged(network)).toEqual([]);
    expect(await pending()).toBe(0);

    // The owner's webhook subscribes: each event queues a delivery and asks for its attempt.
    await webhookChannel(owner, ["policy.changed"]);
    const alone = await committedAlone(network);
    const staged = await committedStaged(network);
    expect(alone).toHaveLength(1);
    expect(staged).toHaveLength(1);
    for (const eventId of [...alone, ...staged]) {
      expect(await countRows("select count(*) as n from notification_deliveries where event_id = ?", eventId)).toBe(1);
    }
  });
});
