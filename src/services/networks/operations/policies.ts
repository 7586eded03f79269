import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { gateways, nodes, routingPolicies } from "../../../db/schema";
import { conflict, domainError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import { toRoutingNetwork, toRoutingNode, toRoutingPolicy } from "../views/routing-model";
import { checkGatewayPath, type GatewayEligibility } from "../rules/gateway-path";
import { checkDestination, findRoutingConflicts } from "../routing";
import { bumpRoutingRevision, loadRoutingState, type PolicyRow, type RoutingState } from "../state";

export interface PolicyInput {
  name: string;
  type: PolicyRow["type"];
  destinationCidr: string;
  gatewayPath: string[];
}

/** 400 for a broken rule (naming the hop), 409 when the policy cannot coexist with the others. */
export interface PolicyRules { maxHops: number; eligibility: GatewayEligibility }

async function assertPolicyFits(db: Db, state: RoutingState, input: PolicyInput, rules: PolicyRules, selfId?: string) {
  const nodesById = new Map(state.nodes.map((node) => [node.id, node]));
  const gatewayIds = [...new Set(input.gatewayPath.map((id) => nodesById.get(id)?.gatewayId).filter((id): id is string => !!id))];
  const inventory = gatewayIds.length === 0 ? [] : await db.select({ id: gateways.id, status: gateways.status, regionId: gateways.regionId })
    .from(gateways).where(inArray(gateways.id, gatewayIds)).all();
  const pathProblem = checkGatewayPath(input.gatewayPath, {
    maxHops: rules.maxHops, nodesById, eligibility: rules.eligibility,
    gatewaysById: new Map(inventory.map((gateway) => [gateway.id, gateway])),
  });
  if (pathProblem) throw domainError(pathProblem);
  const destinationProblem = checkDestination(state.network.cidr, input.destinationCidr);
  if (destinationProblem) throw domainError(`destinationCidr ${input.destinationCidr}: ${destinationProblem}`);
  const others = state.policies.filter((policy) => policy.id !== selfId);
  const nameTaken = others.find((policy) => policy.name === input.name);
  if (nameTaken) throw conflict(`Routing policy ${nameTaken.id} already uses the name "${input.name}"`);
  const candidate = toRoutingPolicy({ id: selfId ?? "(new policy)", ...input });
  const conflicts = findRoutingConflicts(
    toRoutingNetwork(state.network), state.nodes.map(toRoutingNode), [...others.map(toRoutingPolicy), candidate],
  );
  if (conflicts.length > 0) throw conflict(conflicts.join("; "));
}

export async function createPolicy(db: Db, networkId: string, input: PolicyInput, rules: PolicyRules): Promise<PolicyRow> {
  const state = await loadRoutingState(db, networkId);
  if (state.policies.length >= LIMITS.policiesPerNetwork) throw conflict(`A network holds at most ${LIMITS.policiesPerNetwork} routing policies`);
  await assertPolicyFits(db, state, input, rules);
  const now = nowIso();
  const row: PolicyRow = { id: newId("rp"), networkId, ...input, revision: state.network.routingRevision + 1, createdAt: now, updatedAt: now };
  await db.batch([db.insert(routingPolicies).values(row), bumpRoutingRevision(db, networkId)]);
  return row;
}

export async function replacePolicy(db: Db, networkId: string, policyId: string, input: PolicyInput, rules: PolicyRules): Promise<PolicyRow> {
  const state = await loadRoutingState(db, networkId);
  const current = state.policies.find((policy) => policy.id === policyId);
  if (!current) throw notFound("Routing policy");
  await assertPolicyFits(db, state, input, rules, policyId);
  const next: PolicyRow = { ...current, ...input, revision: state.network.routingRevision + 1, updatedAt: nowIso() };
  await db.batch([db.update(routingPolicies).set(next).where(eq(routingPolicies.id, policyId)), bumpRoutingRevision(db, networkId)]);
  return next;
}

/** Devices that chose it ("only" preferences) forget it in the same batch: no stale ids to trip over later. */
export async function deletePolicy(db: Db, networkId: string, policyId: string): Promise<void> {
  const state = await loadRoutingState(db, networkId);
  if (!state.policies.some((policy) => policy.id === policyId)) throw notFound("Routing policy");
  const choosers = state.nodes.filter((node) => node.routingPolicyIds.includes(policyId));
  await db.batch([
    db.delete(routingPolicies).where(eq(routingPolicies.id, policyId)),
    ...choosers.map((node) => db.update(nodes).set({ routingPolicyIds: node.routingPolicyIds.filter((id) => id !== policyId) })
      .where(eq(nodes.id, node.id))),
    bumpRoutingRevision(db, networkId),
  ]);
}
