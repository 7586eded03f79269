import { eq } from "drizzle-orm";
import { insertWhere } from "../../../db/insert-where";
import { nodes, routingPolicies } from "../../../db/schema";
import { conflict, domainError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import type { Warm } from "../directory-reads";
import { egressClaim, egressRefusal } from "../egress-claims";
import { assignmentWithdrawn, stillAssigned } from "../authority/gateway-eligibility";
import type { WriteCaller } from "../authority/write-authority";
import { checkGatewayPath } from "../gateway-path";
import { checkDestination, findRoutingConflicts, type RoutingNode } from "../../../core/routing";
import { actorOf, commit, type WriterContext } from "../commit";
import type { HeldNetwork } from "../memory/held-network";
import type { PolicyRow } from "../../../db/rows";
import { toRoutingNetwork, toRoutingNode, toRoutingPolicy } from "../../../core/routing/from-rows";
import { bumpRoutingRevision } from "../state";
import { rulesInForce } from "./write-rules";

export interface PolicyInput {
  name: string;
  type: PolicyRow["type"];
  destinationCidr: string;
  gatewayPath: string[];
}

/** A pool as the forest rule sees it: one gateway, named by the pool's id and name. */
const poolAsGatewayUnit = (pool: { id: string; name: string }): RoutingNode => ({
  id: pool.id,
  name: pool.name,
  address: "",
  publicKey: null,
  endpoint: null,
  listenPort: null,
  isGateway: true,
  routing: { mode: "none" },
});

/**
 * Returns the nodes the path runs through (a pool's members for a pool hop). Its reads (the inventory, other
 * networks' egress) are of rows this network's writes never change: they go out together, past staged batches.
 */
async function assertPolicyFits(ctx: WriterContext, held: HeldNetwork, input: PolicyInput, selfId?: string) {
  const nodesById = held.nodes;
  const pathNodes = pathNodesOf(held, input);
  const claim = egressClaim(held, input.gatewayPath, input.destinationCidr);
  const [rules, gatewaysById, egressTaken] = await Promise.all([
    rulesInForce(ctx),
    ctx.directory.inventory(held, pathNodes),
    ctx.directory.egress(held.network.id, claim),
  ]);
  const pathProblem = checkGatewayPath(input.gatewayPath, {
    maxHops: rules.maxHops,
    nodesById,
    eligibility: rules.eligibility,
    gatewaysById,
    poolsById: held.pools,
  });
  if (pathProblem) throw domainError(pathProblem);
  const destinationProblem = checkDestination(held.network.cidr, input.destinationCidr);
  if (destinationProblem) throw domainError(`destinationCidr ${input.destinationCidr}: ${destinationProblem}`);
  if (egressTaken) throw egressRefusal(claim, egressTaken, "destinationCidr");
  const others = [...held.policies.values()].filter((policy) => policy.id !== selfId);
  const nameTaken = others.find((policy) => policy.name === input.name);
  if (nameTaken) throw conflict(`Routing policy ${nameTaken.id} already uses the name "${input.name}"`);
  const candidate = toRoutingPolicy({ id: selfId ?? "(new policy)", ...input });
  // The forest rule holds on hop units (a node, or a pool as one pseudo gateway): units are disjoint and a
  // pool has one active member for every policy, so a forest of units is a forest of nodes (docs/routing.md).
  // Only gateways and pools can be hops: their names are what the sentences need.
  const gatewayNodes = [...held.nodes.values()].filter((node) => node.isGateway).map(toRoutingNode);
  const poolUnits = [...held.pools.values()].map(poolAsGatewayUnit);
  const conflicts = findRoutingConflicts(
    toRoutingNetwork(held.network),
    [...gatewayNodes, ...poolUnits],
    [...others.map(toRoutingPolicy), candidate],
  );
  if (conflicts.length > 0) throw conflict(conflicts.join("; "));
  return pathNodes;
}

/** A hop is a node or a pool: the eligibility rules apply to every member of a pool. */
const pathNodesOf = (held: HeldNetwork, input: PolicyInput) =>
  input.gatewayPath.flatMap((hop) => held.pools.get(hop)?.members.map((member) => member.nodeId) ?? [hop]);

/**
 * The reads a policy write will make, started before its turn in the writer's queue, on the copy as it is
 * then (a write ahead of it may change the copy: the write then reads what differs, in its turn).
 */
export const warmPolicyReads =
  (input: PolicyInput, caller: WriteCaller): Warm =>
  (reads, held, kept) => {
    if (!held) return;
    if (!kept.holds(caller, held.network.groupId)) void reads.caller(held.network.groupId, caller);
    void reads.settings();
    void reads.inventory(held, pathNodesOf(held, input));
    void reads.egress(held.network.id, egressClaim(held, input.gatewayPath, input.destinationCidr));
  };

/** policy.changed names the policy as it now is (for a deletion: its id and name) and who changed it. */
function policyEvent(ctx: WriterContext, held: HeldNetwork, action: "created" | "updated" | "deleted", policy: PolicyRow) {
  const { networkId, groupId } = { networkId: held.network.id, groupId: held.network.groupId };
  const shown =
    action === "deleted"
      ? { id: policy.id, name: policy.name }
      : {
          id: policy.id,
          name: policy.name,
          type: policy.type,
          destinationCidr: policy.destinationCidr,
          gatewayPath: policy.gatewayPath,
          revision: policy.revision,
        };
  return {
    action: `policy.${action}`,
    resourceId: policy.id,
    networkId,
    groupId,
    notify: {
      type: "policy.changed" as const,
      networkId,
      groupId,
      subjectId: policy.id,
      data: { action, policy: shown, actor: actorOf(ctx) },
    },
  };
}

/** Policy writes are a manager's: `held` is the network as the caller's check found it (authority/write-authority.ts), and the batch checks again. */
export async function createPolicy(ctx: WriterContext, held: HeldNetwork, input: PolicyInput): Promise<PolicyRow> {
  const { db } = ctx;
  const networkId = held.network.id;
  if (held.policies.size >= LIMITS.policiesPerNetwork)
    throw conflict(`A network holds at most ${LIMITS.policiesPerNetwork} routing policies`);
  const pathNodes = await assertPolicyFits(ctx, held, input);
  const now = nowIso();
  const row: PolicyRow = {
    id: newId("rp"),
    networkId,
    ...input,
    revision: held.network.routingRevision + 1,
    createdAt: now,
    updatedAt: now,
  };
  const allowed = stillAssigned(held, pathNodes);
  const results = await commit(
    ctx,
    [
      insertWhere(db, routingPolicies, row, allowed.onlyIf).returning({ id: routingPolicies.id }),
      bumpRoutingRevision(db, networkId, allowed.onlyIf),
    ],
    policyEvent(ctx, held, "created", row),
    allowed,
  );
  if (!allowed.happened(results)) throw assignmentWithdrawn("gatewayPath");
  held.policies.set(row.id, row);
  held.bumped({ routing: true });
  return row;
}

export async function replacePolicy(ctx: WriterContext, held: HeldNetwork, policyId: string, input: PolicyInput): Promise<PolicyRow> {
  const { db } = ctx;
  const networkId = held.network.id;
  const current = held.policies.get(policyId);
  if (!current) throw notFound("Routing policy");
  const pathNodes = await assertPolicyFits(ctx, held, input, policyId);
  const next: PolicyRow = { ...current, ...input, revision: held.network.routingRevision + 1, updatedAt: nowIso() };
  const allowed = stillAssigned(held, pathNodes);
  const results = await commit(
    ctx,
    [
      db.update(routingPolicies).set(next).where(eq(routingPolicies.id, policyId)).returning({ id: routingPolicies.id }),
      bumpRoutingRevision(db, networkId, allowed.onlyIf),
    ],
    policyEvent(ctx, held, "updated", next),
    allowed,
  );
  if (!allowed.happened(results)) throw assignmentWithdrawn("gatewayPath");
  held.policies.set(policyId, next);
  held.bumped({ routing: true });
  return next;
}

/** Devices that chose it ("only" preferences) forget it in the same batch: no stale ids to trip over later. */
export async function deletePolicy(ctx: WriterContext, held: HeldNetwork, policyId: string): Promise<void> {
  const { db } = ctx;
  const networkId = held.network.id;
  const policy = held.policies.get(policyId);
  if (!policy) throw notFound("Routing policy");
  const choosers = [...held.nodes.values()].filter((node) => node.routingPolicyIds.includes(policyId));
  const results = await commit(
    ctx,
    [
      db.delete(routingPolicies).where(eq(routingPolicies.id, policyId)).returning({ id: routingPolicies.id }),
      ...choosers.map((node) =>
        db
          .update(nodes)
          .set({ routingPolicyIds: node.routingPolicyIds.filter((id) => id !== policyId) })
          .where(eq(nodes.id, node.id)),
      ),
      bumpRoutingRevision(db, networkId),
    ],
    policyEvent(ctx, held, "deleted", policy),
  );
  if ((results[0] as unknown[]).length === 0) throw notFound("Routing policy");
  held.policies.delete(policyId);
  for (const node of choosers) held.putNode({ ...node, routingPolicyIds: node.routingPolicyIds.filter((id) => id !== policyId) });
  held.bumped({ routing: true });
}
