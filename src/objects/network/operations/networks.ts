import { eq } from "drizzle-orm";
import type { NetworkRow } from "../../../db/rows";
import { networks } from "../../../db/schema";
import { ApiError, conflict } from "../../../lib/errors";
import { accessSubjects } from "../access-policy/access-state";
import { failingTests } from "../../../core/access-policy/document-tests";
import { storedRules } from "../access-policy/held-access";
import { rulesInForce } from "../../../core/access-policy/rules";
import { commit, type WriterContext } from "../commit";
import { keepAccessClock } from "./access-expiry";
import { fullNameProblem } from "../../../core/dns";
import type { HeldNetwork } from "../memory/held-network";
import type { NetworkChanges } from "../../group/client";

/** Entering policy mode runs the policy's tests against the nodes as they are now (they may have changed since its PUT). */
function assertAccessTestsPass(held: HeldNetwork) {
  const failing = failingTests(
    "policy",
    rulesInForce(storedRules(held), Date.now()),
    held.access.tests,
    accessSubjects(held.nodes.values(), held.owners),
  );
  if (failing.length > 0) {
    throw new ApiError("validation_error", `accessMode: ${failing.length} of the access policy's tests fail; the network stays open`, {
      fields: failing,
    });
  }
}

function assertNoNodes(held: HeldNetwork, action: string) {
  if (held.nodes.size > 0) throw conflict(`The network still holds nodes; remove them before you ${action}`);
}

/** Runs in the network's writer (no node can arrive meanwhile); the group's writer then checks overlaps. */
async function assertCidrMayChange(ctx: WriterContext, networkId: string, changes: NetworkChanges) {
  if (changes.cidr === undefined) return;
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  if (held.network.cidr !== changes.cidr) assertNoNodes(held, "change its CIDR");
}

/**
 * A new domain lengthens every name under it: each node's `<name>.<dnsDomain>` and each record's full
 * name and relative CNAME target must still fit in 253 characters (else the zone would not load).
 * Runs in the network's writer, so no node or record can arrive between this check and the change.
 */
async function assertNamesFitDomain(ctx: WriterContext, networkId: string, changes: NetworkChanges) {
  const domain = changes.dnsDomain;
  if (domain === undefined) return;
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  for (const node of held.nodes.values()) {
    const problem = fullNameProblem(node.name, domain);
    if (problem) throw conflict(`Node ${node.id} ("${node.name}"): ${problem}; rename it or pick a shorter domain`);
  }
  for (const record of held.records.values()) {
    const problem = fullNameProblem(record.name, domain) ?? (record.type === "CNAME" ? fullNameProblem(record.value, domain) : null);
    if (problem) throw conflict(`DNS record ${record.id} ("${record.name}"): ${problem}; change it or pick a shorter domain`);
  }
}

/**
 * A network's change, in its own writer first (no node or record may arrive while its CIDR or domain
 * changes), then in its group's (`inGroup`: overlaps and names), which writes the row; the network's
 * writer holds that row, so its next write needs no reload.
 */
export async function updateNetwork(
  ctx: WriterContext,
  networkId: string,
  changes: NetworkChanges,
  inGroup: () => Promise<NetworkRow>,
): Promise<NetworkRow> {
  await assertCidrMayChange(ctx, networkId, changes);
  await assertNamesFitDomain(ctx, networkId, changes);
  if (changes.accessMode === "policy") assertAccessTestsPass(await ctx.memory.forWrite(ctx.db, networkId));
  const row = await inGroup();
  ctx.memory.adopt(row);
  // Policy mode keeps a clock for its rules' expiries; open mode none.
  if (changes.accessMode !== undefined) await keepAccessClock(ctx, await ctx.memory.forWrite(ctx.db, networkId));
  return row;
}

/** Runs inside the network's own writer, so no node can be added while the network is deleted. */
export async function deleteNetwork(ctx: WriterContext, networkId: string): Promise<void> {
  const { db } = ctx;
  const held = await ctx.memory.forWrite(db, networkId);
  assertNoNodes(held, "delete it");
  const event = { action: "network.deleted", resourceId: networkId, networkId, groupId: held.network.groupId };
  await commit(ctx, [db.delete(networks).where(eq(networks.id, networkId))], event);
  ctx.memory.forget();
}
