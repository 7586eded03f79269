import { eq, sql } from "drizzle-orm";
import { accessPolicyRevisions, networks } from "../../../db/schema";
import { ApiError, preconditionFailed } from "../../../lib/errors";
import { nowIso } from "../../../lib/ids";
import { type AccessDocument, type AccessPolicyInput, accessSubjects } from "../access-policy/access-state";
import { failingTests } from "../../../core/access-policy/document-tests";
import { parseRules, rulesInForce } from "../../../core/access-policy/rules";
import { keepAccessClock } from "./access-expiry";
import { commit, type WriterContext } from "../commit";
import { accessPolicyView } from "../views/access-policy";
import type { WriteCaller } from "../authority/write-authority";
import type { HeldNetwork } from "../memory/held-network";

/**
 * Replaces the network's access policy (docs/access.md) with a new revision. The document's tests run
 * first, against the network's nodes as they are: one failing test refuses the whole PUT (400, every
 * failure listed) and nothing changes. In policy mode the routing revision moves with it, so every
 * node's config (peers and filters) follows as a delta; in open mode the policy is stored, not enforced.
 * `ifMatch`: the revision the caller last read; a newer one in between refuses the write (412).
 */
export async function putAccessPolicy(
  ctx: WriterContext,
  held: HeldNetwork,
  input: AccessPolicyInput,
  caller: WriteCaller,
  ifMatch: number | null,
): Promise<ReturnType<typeof accessPolicyView>> {
  const { db } = ctx;
  const networkId = held.network.id;
  if (ifMatch !== null && ifMatch !== held.access.revision) {
    throw preconditionFailed(`The access policy is at revision ${held.access.revision}, not ${ifMatch}: read it again`);
  }
  const parsed = parseRules(input.rules);
  if (!parsed.ok) throw new ApiError("VALIDATION_ERROR", "The access policy is not valid", { fields: parsed.fields });
  const subjects = accessSubjects(held.nodes.values(), held.owners);
  const failing = failingTests("policy", rulesInForce(parsed.rules, Date.now()), input.tests, subjects);
  if (failing.length > 0) {
    throw new ApiError("validation_error", `${failing.length} of the policy's tests fail; nothing changed`, { fields: failing });
  }
  const now = nowIso();
  const next: AccessDocument = {
    revision: held.access.revision + 1,
    rules: input.rules,
    tests: input.tests,
    createdBy: caller.userId,
    createdAt: now,
  };
  const enforced = held.network.accessMode === "policy";
  await commit(
    ctx,
    [
      db.insert(accessPolicyRevisions).values({ networkId, ...next, createdAt: now }),
      db
        .update(networks)
        .set({
          accessRevision: next.revision,
          updatedAt: now,
          ...(enforced ? { routingRevision: sql`${networks.routingRevision} + 1` } : {}),
        })
        .where(eq(networks.id, networkId)),
    ],
    // The audit row names the revision written; the one before it is always revision - 1.
    { action: "access-policy.updated", resourceId: `${networkId}@${next.revision}`, networkId, groupId: held.network.groupId },
  );
  held.access = next;
  held.setNetwork({ ...held.network, accessRevision: next.revision, updatedAt: now });
  if (enforced) held.bumped({ routing: true });
  // A rule with an expiresAt stops at it, with no further write: the writer's alarm recompiles then.
  await keepAccessClock(ctx, held);
  // The answer is the document now in force, from the held network: no second trip to read it back.
  return accessPolicyView(held);
}
