import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { devices, gateways, nodes, tunnelObservations } from "../../db/schema";
import { conflict, domainError, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { LIMITS } from "../../lib/limits";
import { mustParseCidr } from "../../services/net/cidr";
import { allocateAddress, checkRequestedAddress } from "../../services/net/ipam";
import { bumpDnsRevision, bumpRoutingRevision, loadRoutingState, type NodeRow, type RoutingState } from "./network-state";

export interface NodeInput {
  name: string;
  publicKey: string;
  address?: string;
  endpoint?: string | null;
  listenPort?: number | null;
  isGateway?: boolean;
  gatewayId?: string | null;
  deviceId?: string | null;
  routingMode?: NodeRow["routingMode"];
  routingPolicyIds?: string[];
}
export type NodeChanges = Partial<Omit<NodeInput, "deviceId">>;

function assertUniqueIdentity(state: RoutingState, candidate: { name: string; publicKey: string }, selfId?: string) {
  for (const other of state.nodes) {
    if (other.id === selfId) continue;
    if (other.name === candidate.name) throw conflict(`Node ${other.id} already uses the name "${candidate.name}" in this network`);
    if (other.publicKey === candidate.publicKey) throw conflict(`Node ${other.id} already uses this public key in this network`);
  }
}

async function assertGatewayRole(db: Db, isGateway: boolean, gatewayId: string | null) {
  if (!isGateway) return;
  if (!gatewayId) throw domainError("A node with the gateway role needs gatewayId (its inventory gateway)");
  const gateway = await db.select({ id: gateways.id }).from(gateways).where(eq(gateways.id, gatewayId)).get();
  if (!gateway) throw domainError(`gatewayId ${gatewayId} is not in the gateway inventory`);
}

/** A requested address must be free and usable; otherwise the lowest free one (409 when the range is full). */
function pickAddress(state: RoutingState, requested: string | undefined, selfId?: string): string {
  const cidr = mustParseCidr(state.network.cidr);
  const used = state.nodes.filter((node) => node.id !== selfId).map((node) => node.address);
  if (requested !== undefined) {
    const checked = checkRequestedAddress(cidr, requested, used);
    if (checked.ok) return checked.address;
    if (/in use|used/i.test(checked.reason)) throw conflict(`${requested}: ${checked.reason}`);
    throw domainError(`address ${requested}: ${checked.reason}`);
  }
  const address = allocateAddress(cidr, used);
  if (!address) throw conflict(`The network's address range ${state.network.cidr} is exhausted`);
  return address;
}

const policiesUsing = (state: RoutingState, nodeId: string) =>
  state.policies.filter((policy) => policy.gatewayPath.includes(nodeId)).map((policy) => policy.id);

/** Validates and allocates a new node without writing it, so callers can batch it with more rows. */
export async function planNode(db: Db, networkId: string, input: NodeInput): Promise<NodeRow> {
  const state = await loadRoutingState(db, networkId);
  if (state.nodes.length >= LIMITS.nodesPerNetwork) throw conflict(`A network holds at most ${LIMITS.nodesPerNetwork} nodes`);
  assertUniqueIdentity(state, input);
  const isGateway = input.isGateway ?? false;
  const gatewayId = isGateway ? input.gatewayId ?? null : null;
  await assertGatewayRole(db, isGateway, gatewayId);
  const now = nowIso();
  const row: NodeRow = {
    id: newId("node"), networkId, name: input.name, publicKey: input.publicKey, address: pickAddress(state, input.address),
    endpoint: input.endpoint ?? null, listenPort: input.listenPort ?? null, isGateway, gatewayId, deviceId: input.deviceId ?? null,
    routingMode: input.routingMode ?? "all", routingPolicyIds: input.routingPolicyIds ?? [],
    revision: state.network.routingRevision + 1, appliedRoutingRevision: null, appliedDnsRevision: null, lastSeenAt: null, createdAt: now, updatedAt: now,
  };
  return row;
}

export async function createNode(db: Db, networkId: string, input: NodeInput): Promise<NodeRow> {
  const row = await planNode(db, networkId, input);
  await db.batch([db.insert(nodes).values(row), bumpRoutingRevision(db, networkId), bumpDnsRevision(db, networkId)]);
  return row;
}

export async function updateNode(db: Db, networkId: string, nodeId: string, changes: NodeChanges): Promise<NodeRow> {
  const state = await loadRoutingState(db, networkId);
  const current = state.nodes.find((node) => node.id === nodeId);
  if (!current) throw notFound("Node");
  const isGateway = changes.isGateway ?? current.isGateway;
  const usedBy = policiesUsing(state, nodeId);
  if (!isGateway && usedBy.length > 0) throw conflict(`The node is a hop of routing policies ${usedBy.join(", ")}; change them first`);
  const gatewayId = isGateway ? (changes.gatewayId !== undefined ? changes.gatewayId : current.gatewayId) : null;
  const next: NodeRow = {
    ...current,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    isGateway, gatewayId,
    address: changes.address !== undefined ? pickAddress(state, changes.address, nodeId) : current.address,
    revision: state.network.routingRevision + 1,
    updatedAt: nowIso(),
  };
  assertUniqueIdentity(state, next, nodeId);
  if (gatewayId !== current.gatewayId || isGateway !== current.isGateway) await assertGatewayRole(db, isGateway, gatewayId);
  // Names, addresses and gateways (the zone's name server is a gateway's address) all shape the zone file.
  const renamed = next.name !== current.name || next.address !== current.address || next.isGateway !== current.isGateway;
  // Heartbeat columns are left alone: heartbeats write them outside the writer.
  const { appliedRoutingRevision: _applied, appliedDnsRevision: _dns, lastSeenAt: _seen, ...managed } = next;
  await db.batch([
    db.update(nodes).set(managed).where(eq(nodes.id, nodeId)),
    bumpRoutingRevision(db, networkId),
    ...(renamed ? [bumpDnsRevision(db, networkId)] : []),
  ]);
  return next;
}

/** Deleting frees the address for reuse; a hop of a policy cannot go while the policy names it. */
export async function deleteNode(db: Db, networkId: string, nodeId: string): Promise<void> {
  const state = await loadRoutingState(db, networkId);
  if (!state.nodes.some((node) => node.id === nodeId)) throw notFound("Node");
  const usedBy = policiesUsing(state, nodeId);
  if (usedBy.length > 0) throw conflict(`The node is a hop of routing policies ${usedBy.join(", ")}; change them first`);
  await db.batch([
    db.delete(nodes).where(eq(nodes.id, nodeId)),
    // A device's node going means the device goes too: its credential must stop working.
    db.delete(devices).where(eq(devices.nodeId, nodeId)),
    db.delete(tunnelObservations).where(eq(tunnelObservations.fromNodeId, nodeId)),
    bumpRoutingRevision(db, networkId),
    bumpDnsRevision(db, networkId),
  ]);
}
