import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devices, gateways, nodes, tunnelObservations } from "../../../db/schema";
import { conflict, domainError, fieldError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import { commit, type WriterContext } from "../commit";
import { nodeNameProblem } from "../dns";
import { mustParseCidr } from "../net/cidr";
import { allocateAddress, checkRequestedAddress } from "../net/ipam";
import { bumpDnsRevision, bumpRoutingRevision, loadRoutingState, type NodeRow, type RoutingState } from "../state";

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

/** Checked in the writer, against the domain the network has now: `<name>.<dnsDomain>` must be a name the zone can hold. */
function assertNameFitsZone(state: RoutingState, name: string) {
  const problem = nodeNameProblem(name, state.network.dnsDomain);
  if (problem) throw fieldError("name", problem);
}

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

/** Validates and allocates a new node without writing it, so callers can write it in their own batch. */
export async function planNode({ db }: WriterContext, networkId: string, input: NodeInput) {
  const state = await loadRoutingState(db, networkId);
  if (state.nodes.length >= LIMITS.nodesPerNetwork) throw conflict(`A network holds at most ${LIMITS.nodesPerNetwork} nodes`);
  assertNameFitsZone(state, input.name);
  assertUniqueIdentity(state, input);
  const isGateway = input.isGateway ?? false;
  const gatewayId = isGateway ? (input.gatewayId ?? null) : null;
  await assertGatewayRole(db, isGateway, gatewayId);
  const now = nowIso();
  const row: NodeRow = {
    id: newId("node"),
    networkId,
    name: input.name,
    publicKey: input.publicKey,
    address: pickAddress(state, input.address),
    endpoint: input.endpoint ?? null,
    listenPort: input.listenPort ?? null,
    isGateway,
    gatewayId,
    deviceId: input.deviceId ?? null,
    routingMode: input.routingMode ?? "all",
    routingPolicyIds: input.routingPolicyIds ?? [],
    revision: state.network.routingRevision + 1,
    appliedRoutingRevision: null,
    appliedDnsRevision: null,
    lastSeenAt: null,
    createdAt: now,
    updatedAt: now,
  };
  return { row, groupId: state.network.groupId };
}

/** What a change to a node is, in the domain's words: a plain node's, or (through its node) a device's. */
export type NodeAction = "node.added" | "node.updated" | "node.removed" | "device.renamed" | "device.routing-changed" | "device.removed";
const DEVICE_ACTIONS: ReadonlySet<NodeAction> = new Set(["device.renamed", "device.routing-changed", "device.removed"]);

/** A device's node changes as the device: its events name the device. */
const nodeEvent = (action: NodeAction, node: { id: string; networkId: string; deviceId: string | null }, groupId: string) => ({
  action,
  resourceId: DEVICE_ACTIONS.has(action) && node.deviceId ? node.deviceId : node.id,
  networkId: node.networkId,
  groupId,
});

export async function createNode(ctx: WriterContext, networkId: string, input: NodeInput): Promise<NodeRow> {
  const { db } = ctx;
  const { row, groupId } = await planNode(ctx, networkId, input);
  await commit(
    ctx,
    [db.insert(nodes).values(row), bumpRoutingRevision(db, networkId), bumpDnsRevision(db, networkId)],
    nodeEvent("node.added", row, groupId),
  );
  return row;
}

export async function updateNode(
  ctx: WriterContext,
  networkId: string,
  nodeId: string,
  changes: NodeChanges,
  action: NodeAction = "node.updated",
): Promise<NodeRow> {
  const { db } = ctx;
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
    isGateway,
    gatewayId,
    address: changes.address !== undefined ? pickAddress(state, changes.address, nodeId) : current.address,
    revision: state.network.routingRevision + 1,
    updatedAt: nowIso(),
  };
  if (next.name !== current.name) assertNameFitsZone(state, next.name);
  assertUniqueIdentity(state, next, nodeId);
  if (gatewayId !== current.gatewayId || isGateway !== current.isGateway) await assertGatewayRole(db, isGateway, gatewayId);
  // Names, addresses and gateways (the zone's name server is a gateway's address) all shape the zone file.
  const renamed = next.name !== current.name || next.address !== current.address || next.isGateway !== current.isGateway;
  // Heartbeat columns are left alone: heartbeats write them outside the writer.
  const { appliedRoutingRevision: _applied, appliedDnsRevision: _dns, lastSeenAt: _seen, ...managed } = next;
  await commit(
    ctx,
    [
      db.update(nodes).set(managed).where(eq(nodes.id, nodeId)),
      bumpRoutingRevision(db, networkId),
      ...(renamed ? [bumpDnsRevision(db, networkId)] : []),
    ],
    nodeEvent(action, next, state.network.groupId),
  );
  return next;
}

/** Deleting frees the address for reuse; a hop of a policy cannot go while the policy names it. */
export async function deleteNode(
  ctx: WriterContext,
  networkId: string,
  nodeId: string,
  action: NodeAction = "node.removed",
): Promise<void> {
  const { db } = ctx;
  const state = await loadRoutingState(db, networkId);
  const node = state.nodes.find((candidate) => candidate.id === nodeId);
  if (!node) throw notFound("Node");
  const usedBy = policiesUsing(state, nodeId);
  if (usedBy.length > 0) throw conflict(`The node is a hop of routing policies ${usedBy.join(", ")}; change them first`);
  await commit(
    ctx,
    [
      db.delete(nodes).where(eq(nodes.id, nodeId)),
      // A device's node going means the device goes too: its credential must stop working.
      db.delete(devices).where(eq(devices.nodeId, nodeId)),
      db.delete(tunnelObservations).where(eq(tunnelObservations.fromNodeId, nodeId)),
      bumpRoutingRevision(db, networkId),
      bumpDnsRevision(db, networkId),
    ],
    nodeEvent(action, node, state.network.groupId),
  );
}
