import { POOL_LIMITS } from "../../../lib/limits";
import { and, eq } from "drizzle-orm";
import { insertWhere } from "../../../db/insert-where";
import { gatewayPools, type PoolMember } from "../../../db/schema";
import { conflict, domainError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { commit, type WriterContext } from "../commit";
import { assertMovedEgressFree } from "../egress-claims";
import { assignmentWithdrawn, stillAssigned } from "../authority/gateway-eligibility";
import { type GatewayEligibility, gatewayNodeProblem } from "../gateway-path";
import type { HeldNetwork } from "../memory/held-network";
import { initialActive } from "../../../core/pools/health";
import type { PoolRow } from "../../../db/rows";
import { bumpRoutingRevision } from "../state";
import { evaluatedPool, needsPoolChecks } from "./pool-failover";
import { rulesInForce } from "./write-rules";

export interface PoolInput {
  name: string;
  members: { nodeId: string; priority: number }[];
  preempt?: boolean;
}
export type PoolChanges = Partial<PoolInput>;

/**
 * A pool's members: gateway nodes of this network that pass every rule a hop of a path must pass (400
 * naming the member), each in no other pool and named by no policy directly (409: a member is reached
 * through its pool, so the forest rule, checked on pools as units, holds for every choice of members).
 */
async function assertMembersFit(
  ctx: WriterContext,
  held: HeldNetwork,
  members: PoolInput["members"],
  eligibility: GatewayEligibility,
  selfId?: string,
) {
  const seen = new Set<string>();
  const gatewaysById = await ctx.directory.inventory(
    held,
    members.map((member) => member.nodeId),
  );
  for (const [index, { nodeId }] of members.entries()) {
    const subject = `members.${index} (${nodeId})`;
    if (seen.has(nodeId)) throw domainError(`${subject} repeats an earlier member`);
    seen.add(nodeId);
    const problem = gatewayNodeProblem(subject, nodeId, { nodesById: held.nodes, gatewaysById, eligibility });
    if (problem) throw domainError(problem);
    const pool = held.poolOf(nodeId);
    if (pool && pool.id !== selfId)
      throw conflict(`Node ${nodeId} is already a member of gateway pool ${pool.id}; a node belongs to at most one pool`);
    const naming = [...held.policies.values()].filter((policy) => policy.gatewayPath.includes(nodeId)).map((policy) => policy.id);
    if (naming.length > 0) {
      throw conflict(
        `Node ${nodeId} is a hop of routing policies ${naming.join(", ")}; a pool member is named through its pool, change them first`,
      );
    }
  }
}

function assertNameFree(held: HeldNetwork, name: string, selfId?: string) {
  const taken = [...held.pools.values()].find((pool) => pool.name === name && pool.id !== selfId);
  if (taken) throw conflict(`Gateway pool ${taken.id} already uses the name "${name}"`);
}

const poolEvent = (held: HeldNetwork, action: string, pool: PoolRow) => ({
  action,
  resourceId: pool.id,
  networkId: held.network.id,
  groupId: held.network.groupId,
});

/** Every pool write bumps the routing revision: the topology of a revision must not change under it. */
async function writePool(ctx: WriterContext, held: HeldNetwork, next: PoolRow, action: string, insert = false) {
  const { db } = ctx;
  // The members' gateways must still be assigned to the group when the batch runs.
  const assigned = stillAssigned(
    held,
    next.members.map((member) => member.nodeId),
  );
  const write = insert
    ? insertWhere(db, gatewayPools, next, assigned.onlyIf).returning({ id: gatewayPools.id })
    : db
        .update(gatewayPools)
        .set(next)
        .where(and(eq(gatewayPools.id, next.id), assigned.onlyIf))
        .returning({ id: gatewayPools.id });
  const results = await commit(
    ctx,
    [write, bumpRoutingRevision(db, held.network.id, assigned.onlyIf)],
    poolEvent(held, action, next),
    assigned,
  );
  if (!assigned.happened(results)) throw assignmentWithdrawn("members");
  held.pools.set(next.id, next);
  held.bumped({ routing: true });
  return next;
}

/** Each pool write ends in the evaluation it may call for (operations/pool-failover.ts) and answers the pool as it then is. */
export async function createPool(ctx: WriterContext, networkId: string, input: PoolInput): Promise<PoolRow> {
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  if (held.pools.size >= POOL_LIMITS.poolsPerNetwork)
    throw conflict(`A network holds at most ${POOL_LIMITS.poolsPerNetwork} gateway pools`);
  assertNameFree(held, input.name);
  await assertMembersFit(ctx, held, input.members, (await rulesInForce(ctx)).eligibility);
  const members: PoolMember[] = input.members.map(({ nodeId, priority }) => ({ nodeId, priority, drained: false }));
  const now = nowIso();
  const row: PoolRow = {
    id: newId("gpl"),
    networkId,
    name: input.name,
    preempt: input.preempt ?? false,
    members,
    activeNodeId: initialActive(members),
    lastFailoverAt: null,
    lastFailoverFrom: null,
    lastFailoverTo: null,
    lastFailoverReason: null,
    createdAt: now,
    updatedAt: now,
  };
  await writePool(ctx, held, row, "gateway-pool.created", true);
  return evaluatedPool(ctx, networkId, row.id);
}

/** PATCH: what the body names is replaced. Members that stay keep their drain; an active member that left hands over. */
export async function updatePool(ctx: WriterContext, networkId: string, poolId: string, changes: PoolChanges): Promise<PoolRow> {
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  const current = held.pools.get(poolId);
  if (!current) throw notFound("Gateway pool");
  if (changes.name !== undefined) assertNameFree(held, changes.name, poolId);
  let members = current.members;
  if (changes.members) {
    await assertMembersFit(ctx, held, changes.members, (await rulesInForce(ctx)).eligibility, poolId);
    // Policies leaving the overlay at this pool now leave at every new member's gateway.
    const gatewaysAfter = () =>
      changes.members!.map((member) => held.nodes.get(member.nodeId)?.gatewayId).filter((id): id is string => !!id);
    await assertMovedEgressFree(ctx.directory.db, held, [poolId], gatewaysAfter, "members");
    const drained = new Set(current.members.filter((member) => member.drained).map((member) => member.nodeId));
    members = changes.members.map(({ nodeId, priority }) => ({ nodeId, priority, drained: drained.has(nodeId) }));
  }
  const stays = members.some((member) => member.nodeId === current.activeNodeId);
  const next: PoolRow = {
    ...current,
    name: changes.name ?? current.name,
    preempt: changes.preempt ?? current.preempt,
    members,
    activeNodeId: stays ? current.activeNodeId : initialActive(members),
    updatedAt: nowIso(),
  };
  await writePool(ctx, held, next, "gateway-pool.updated");
  return evaluatedPool(ctx, networkId, poolId);
}

export async function deletePool(ctx: WriterContext, networkId: string, poolId: string): Promise<void> {
  const { db } = ctx;
  const held = await ctx.memory.forWrite(db, networkId);
  const pool = held.pools.get(poolId);
  if (!pool) throw notFound("Gateway pool");
  const naming = [...held.policies.values()].filter((policy) => policy.gatewayPath.includes(poolId)).map((policy) => policy.id);
  if (naming.length > 0) throw conflict(`The pool is a hop of routing policies ${naming.join(", ")}; change them first`);
  await commit(
    ctx,
    [db.delete(gatewayPools).where(eq(gatewayPools.id, poolId)), bumpRoutingRevision(db, networkId)],
    poolEvent(held, "gateway-pool.deleted", pool),
  );
  held.pools.delete(poolId);
  held.bumped({ routing: true });
  await ctx.schedulePoolChecks?.(networkId, needsPoolChecks(held));
}

/** An operator's drain: a drained member is never chosen (the evaluation that follows moves traffic off it at once). */
export async function setMemberDrained(
  ctx: WriterContext,
  networkId: string,
  poolId: string,
  nodeId: string,
  drained: boolean,
): Promise<PoolRow> {
  const held = await ctx.memory.forWrite(ctx.db, networkId);
  const current = held.pools.get(poolId);
  if (!current) throw notFound("Gateway pool");
  if (!current.members.some((member) => member.nodeId === nodeId)) throw notFound("Pool member");
  const members = current.members.map((member) => (member.nodeId === nodeId ? { ...member, drained } : member));
  const next: PoolRow = { ...current, members, updatedAt: nowIso() };
  await writePool(ctx, held, next, drained ? "gateway-pool.member-drained" : "gateway-pool.member-undrained");
  return evaluatedPool(ctx, networkId, poolId);
}
