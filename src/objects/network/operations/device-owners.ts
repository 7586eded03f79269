import { deviceOwners, nodeOwner } from "../access-policy/access-state";
import type { AccessRuleText } from "../../../core/access-policy/rules";
import { commit, type WriterContext } from "../commit";
import { bumpRoutingRevision } from "../state";

/** Does a rule name devices by whose they are? Only then does an owner's change move what configs carry. */
const namesOwners = (rules: readonly AccessRuleText[]) =>
  rules.some((rule) => [...rule.src, ...rule.dst].some((selector) => /^(user|role|idp):/.test(selector)));

/**
 * A user's role in the network's group changed (or they joined it, or their IdP groups changed): their devices'
 * owners are read again and held, so `user:`, `role:` and `idp:` selectors follow at once, without a policy write. In policy mode, with a
 * rule that names owners, the routing revision moves too (configs are served per revision, and the devices
 * long-polling for it wake). The bump does not depend on what was held: a writer that reloaded after the
 * role change (a restart) holds the new role already, and its clients' configs still predate it.
 */
export async function refreshDeviceOwner(ctx: WriterContext, networkId: string, userId: string): Promise<{ bumped: boolean }> {
  const { db } = ctx;
  const held = await ctx.memory.forWrite(db, networkId);
  const rows = await deviceOwners(db, held.network, userId);
  const bumped = rows.length > 0 && held.network.accessMode === "policy" && namesOwners(held.access.rules);
  if (bumped) {
    await commit(ctx, [bumpRoutingRevision(db, networkId)], {
      action: "access.owner-changed",
      resourceId: userId,
      networkId,
      groupId: held.network.groupId,
    });
    held.bumped({ routing: true });
  }
  for (const row of rows) held.owners.set(row.nodeId, nodeOwner(row));
  return { bumped };
}
