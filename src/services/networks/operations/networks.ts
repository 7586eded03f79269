import { and, eq, ne } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { networks } from "../../../db/schema";
import { ApiError, conflict, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { accessSubjects } from "../access/access-state";
import { failingTests } from "../access/document-tests";
import { storedRules } from "../access/held-access";
import { rulesInForce } from "../access/rules";
import { commit, type WriterContext } from "../commit";
import { keepAccessClock } from "./access-expiry";
import { fullNameProblem } from "../dns";
import type { HeldNetwork } from "../memory/held-network";
import { mustParseCidr, overlaps } from "../net/cidr";

export type NetworkRow = typeof networks.$inferSelect;
export interface NewNetwork {
  groupId: string;
  name: string;
  cidr: string;
  dnsDomain: string;
}
export interface NetworkChanges {
  name?: string;
  cidr?: string;
  dnsDomain?: string;
  /** docs/access.md: open (every node reaches every node) or policy (only the access policy's rules allow). */
  accessMode?: NetworkRow["accessMode"];
}

/** Runs inside the group's writer: no two networks of one group may overlap or share a name. */
async function assertFitsInGroup(db: Db, groupId: string, candidate: { name?: string; cidr?: string }, exceptId?: string) {
  const siblings = await db
    .select({ id: networks.id, name: networks.name, cidr: networks.cidr })
    .from(networks)
    .where(exceptId ? and(eq(networks.groupId, groupId), ne(networks.id, exceptId)) : eq(networks.groupId, groupId))
    .all();
  const wanted = candidate.cidr ? mustParseCidr(candidate.cidr) : undefined;
  for (const sibling of siblings) {
    if (candidate.name !== undefined && sibling.name === candidate.name) {
      throw conflict(`The group already has a network named "${candidate.name}" (${sibling.id})`);
    }
    if (wanted && overlaps(wanted, mustParseCidr(sibling.cidr))) {
      throw conflict(`${candidate.cidr} overlaps ${sibling.cidr} of network ${sibling.id} in the same group`);
    }
  }
}

const networkEvent = (action: string, network: { id: string; groupId: string }) => ({
  action: `network.${action}`,
  resourceId: network.id,
  networkId: network.id,
  groupId: network.groupId,
});

/** A new network is open (every node reaches every node) until its owners choose policy mode (docs/access.md). */
const OPEN_ACCESS = { accessMode: "open", accessRevision: 0 } as const;

export async function createNetwork(ctx: WriterContext, input: NewNetwork): Promise<NetworkRow> {
  await assertFitsInGroup(ctx.db, input.groupId, input);
  const now = nowIso();
  const row: NetworkRow = {
    id: newId("net"),
    ...input,
    routingRevision: 0,
    dnsRevision: 0,
    ...OPEN_ACCESS,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(networks).values(row)], networkEvent("created", row));
  return row;
}

/**
 * Runs inside the group's writer: name and CIDR changes are checked against the group's other networks;
 * a new domain bumps the DNS revision.
 */
export async function applyNetworkChanges(ctx: WriterContext, networkId: string, changes: NetworkChanges): Promise<NetworkRow> {
  const { db } = ctx;
  const current = await db.select().from(networks).where(eq(networks.id, networkId)).get();
  if (!current) throw notFound("Network");
  const renamed = changes.name !== undefined && changes.name !== current.name;
  const moved = changes.cidr !== undefined && changes.cidr !== current.cidr;
  if (renamed || moved) {
    await assertFitsInGroup(
      db,
      current.groupId,
      { name: renamed ? changes.name : undefined, cidr: moved ? changes.cidr : undefined },
      networkId,
    );
  }
  const domainChanged = changes.dnsDomain !== undefined && changes.dnsDomain !== current.dnsDomain;
  // Every node's peers and filters follow the access mode: a new routing revision.
  const modeChanged = changes.accessMode !== undefined && changes.accessMode !== current.accessMode;
  const next: NetworkRow = {
    ...current,
    ...changes,
    // The zone's fallback name-server address comes from the CIDR, so a move changes the zone too.
    dnsRevision: current.dnsRevision + (domainChanged || moved ? 1 : 0),
    // Configs name the domain as their DNS search domain, so a new domain is a new routing revision too.
    routingRevision: current.routingRevision + (moved || domainChanged || modeChanged ? 1 : 0),
    updatedAt: nowIso(),
  };
  await commit(ctx, [db.update(networks).set(next).where(eq(networks.id, networkId))], networkEvent("updated", next));
  return next;
}

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
  await commit(ctx, [db.delete(networks).where(eq(networks.id, networkId))], networkEvent("deleted", held.network));
  ctx.memory.forget();
}
