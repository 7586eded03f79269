import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { gateways, nodes, routingPolicies } from "../../../db/schema";
import { conflict, domainError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import { checkGatewayPath, type GatewayEligibility } from "../gateway-path";
import { checkDestination, findRoutingConflicts } from "../routing";
import { actorOf, commit, type WriterContext } from "../commit";
import {
  bumpRoutingRevision,
  loadRoutingState,
  type PolicyRow,
  type RoutingState,
  toRoutingNetwork,
  toRoutingNode,
  toRoutingPolicy,
} from "../state";

export interface PolicyInput {
  name: string;
  type: PolicyRow["type"];
  destinationCidr: string;
  gatewayPath: string[];
}

/** 400 for a broken rule (naming the hop), 409 when the policy cannot coexist with the others. */
export interface PolicyRules {
  maxHops: number;
  eligibility: GatewayEligibility;
}

async function assertPolicyFits(db: Db, state: RoutingState, input: PolicyInput, rules: PolicyRules, selfId?: string) {
  const nodesById = new Map(state.nodes.map((node) => [node.id, node]));
  const gatewayIds = [...new Set(input.gatewayPath.map((id) => nodesById.get(id)?.gatewayId).filter((id): id is string => !!id))];
  const inventory =
    gatewayIds.length === 0
      ? []
      : await db
          .select({ id: gateways.id, status: gateways.status, regionId: gateways.regionId })
          .from(gateways)
          .where(inArray(gateways.id, gatewayIds))
          .all();
  const pathProblem = checkGatewayPath(input.gatewayPath, {
    maxHops: rules.maxHops,
    nodesById,
    eligibility: rules.eligibility,
    gatewaysById: new Map(inventory.map((gateway) => [gateway.id, gateway])),
  });
  if (pathProblem) throw domainError(pathProblem);
  const destinationProblem = checkDestination(state.network.cidr, input.destinationCidr);
  if (destinationProblem) throw domainError(`destinationCidr ${input.destinationCidr}: ${destinationProblem}`);
  const others = state.policies.filter((policy) => policy.id !== selfId);
  const nameTaken = others.find((policy) => policy.name === input.name);
  if (nameTaken) throw conflict(`Routing policy ${nameTaken.id} already uses the name "${input.name}"`);
  const candidate = toRoutingPolicy({ id: selfId ?? "(new policy)", ...input });
  const conflicts = findRoutingConflicts(toRoutingNetwork(state.network), state.nodes.map(toRoutingNode), [
    ...others.map(toRoutingPolicy),
    candidate,
  ]);
  if (conflicts.length > 0) throw conflict(conflicts.join("; "));
}

/** policy.changed names the policy as it now is (for a deletion: its id and name) and who changed it. */
function policyEvent(ctx: WriterContext, state: RoutingState, action: "created" | "updated" | "deleted", policy: PolicyRow) {
  const { networkId, groupId } = { networkId: state.network.id, groupId: state.network.groupId };
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

export async function createPolicy(ctx: WriterContext, networkId: string, input: PolicyInput, rules: PolicyRules): Promise<PolicyRow> {
  const { db } = ctx;
  const state = await loadRoutingState(db, networkId);
  if (state.policies.length >= LIMITS.policiesPerNetwork)
    throw conflict(`A network holds at most ${LIMITS.policiesPerNetwork} routing policies`);
  await assertPolicyFits(db, state, input, rules);
  const now = nowIso();
  const row: PolicyRow = {
    id: newId("rp"),
    networkId,
    ...input,
    revision: state.network.routingRevision + 1,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [db.insert(routingPolicies).values(row), bumpRoutingRevision(db, networkId)], policyEvent(ctx, state, "created", row));
  return row;
}

export async function replacePolicy(
  ctx: WriterContext,
  networkId: string,
  policyId: string,
  input: PolicyInput,
  rules: PolicyRules,
): Promise<PolicyRow> {
  const { db } = ctx;
  const state = await loadRoutingState(db, networkId);
  const current = state.policies.find((policy) => policy.id === policyId);
  if (!current) throw notFound("Routing policy");
  await assertPolicyFits(db, state, input, rules, policyId);
  const next: PolicyRow = { ...current, ...input, revision: state.network.routingRevision + 1, updatedAt: nowIso() };
  await commit(
    ctx,
    [db.update(routingPolicies).set(next).where(eq(routingPolicies.id, policyId)), bumpRoutingRevision(db, networkId)],
    policyEvent(ctx, state, "updated", next),
  );
  return next;
}

/** Devices that chose it ("only" preferences) forget it in the same batch: no stale ids to trip over later. */
export async function deletePolicy(ctx: WriterContext, networkId: string, policyId: string): Promise<void> {
  const { db } = ctx;
  const state = await loadRoutingState(db, networkId);
  const policy = state.policies.find((candidate) => candidate.id === policyId);
  if (!policy) throw notFound("Routing policy");
  const choosers = state.nodes.filter((node) => node.routingPolicyIds.includes(policyId));
  await commit(
    ctx,
    [
      db.delete(routingPolicies).where(eq(routingPolicies.id, policyId)),
      ...choosers.map((node) =>
        db
          .update(nodes)
          .set({ routingPolicyIds: node.routingPolicyIds.filter((id) => id !== policyId) })
          .where(eq(nodes.id, node.id)),
      ),
      bumpRoutingRevision(db, networkId),
    ],
    policyEvent(ctx, state, "deleted", policy),
  );
}
