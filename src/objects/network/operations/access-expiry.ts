import { systemAudit } from "../../../services/audit/audit-trail";
import { storedRules } from "../access-policy/held-access";
import { nextExpiry } from "../../../core/access-policy/rules";
import { commit, type WriterContext } from "../commit";
import type { HeldNetwork } from "../memory/held-network";
import { bumpRoutingRevision } from "../state";

/** The audit row of an expiry: the system's own change, on its clock, naming the policy revision whose rule lapsed. */
const expiryAudit = (networkId: string) => systemAudit("access-policy.rule-expired", networkId);

/**
 * When the writer must next recompile the network's access by itself: just after the earliest future
 * `expiresAt` of an enforced policy (rulesInForce keeps a rule while `expiresAt > now`, hence the +1 ms).
 * Open mode enforces nothing, and entering policy mode compiles afresh, so it needs no clock.
 */
export function accessClockAt(held: HeldNetwork, now = Date.now()): number | null {
  if (held.network.accessMode !== "policy") return null;
  const next = nextExpiry(storedRules(held), now);
  return next === null ? null : next + 1;
}

/** After a write that changes the policy or the mode: the writer's clock follows the next expiry. */
export async function keepAccessClock(ctx: WriterContext, held: HeldNetwork) {
  await ctx.scheduleAccessExpiry?.(held.network.id, accessClockAt(held));
}

/**
 * The writer's alarm at a rule's expiry: a new routing revision, so every node's config is compiled again
 * without the lapsed rule and follows as a delta (long polls and heartbeats see the revision move) with
 * no write from anyone. Audited as a system change; then the clock moves to the next expiry.
 */
export async function expireAccessRules(ctx: WriterContext, networkId: string, now = Date.now()) {
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  const lapsed =
    held.network.accessMode === "policy"
      ? storedRules(held)
          .filter((rule) => rule.expiresAt !== null && rule.expiresAt <= now)
          .map((rule) => rule.index)
      : [];
  if (lapsed.length > 0) {
    const resourceId = `${networkId}@${held.access.revision}`;
    await commit({ ...ctx, audit: expiryAudit(networkId) }, [bumpRoutingRevision(ctx.db, networkId)], {
      action: "access-policy.rule-expired",
      resourceId,
      networkId,
      groupId: held.network.groupId,
    });
    held.bumped({ routing: true });
  }
  await keepAccessClock(ctx, held);
  return { lapsed, routingRevision: held.network.routingRevision };
}
