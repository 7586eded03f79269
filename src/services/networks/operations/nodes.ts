import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { devices, gateways, nodes, tunnelObservations } from "../../../db/schema";
import { conflict, domainError, fieldError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import { commit, type WriterContext } from "../commit";
import { assertMovedEgressFree } from "../egress-claims";
import { commitPlaced, placeOnGateway } from "../gateway-eligibility";
import { insertWhere } from "../../../db/insert-where";
import { nodeNameProblem } from "../dns";
import { mustParseCidr } from "../net/cidr";
import type { HeldNetwork } from "../memory/held-network";
import { checkRequestedAddress, parseAddress } from "../net/ipam";
import { publicKeyOrNull, storedPublicKey } from "../net/wireguard-key";
import { bumpDnsRevision, bumpRoutingRevision, type NodeRow } from "../state";

export interface NodeInput {
  name: string;
  /** Absent or null: a gateway node awaiting its agent's key (the route allows it for gateway nodes only). */
  publicKey?: string | null;
  address?: string;
  endpoint?: string | null;
  listenPort?: number | null;
  isGateway?: boolean;
  gatewayId?: string | null;
  servesDns?: boolean;
  deviceId?: string | null;
  routingMode?: NodeRow["routingMode"];
  routingPolicyIds?: string[];
}
export type NodeChanges = Partial<Omit<NodeInput, "deviceId">>;

/** Checked in the writer, against the domain the network has now: `<name>.<dnsDomain>` must be a name the zone can hold. */
function assertNameFitsZone(held: HeldNetwork, name: string) {
  const problem = nodeNameProblem(name, held.network.dnsDomain);
  if (problem) throw fieldError("name", problem);
}

function assertUniqueIdentity(held: HeldNetwork, candidate: { name: string; publicKey: string }, selfId?: string) {
  // nodeWithKey finds no keyless node: any number of gateway nodes may await their agents.
  const named = held.nodeNamed(candidate.name);
  if (named && named.id !== selfId) throw conflict(`Node ${named.id} already uses the name "${candidate.name}" in this network`);
  const keyed = held.nodeWithKey(candidate.publicKey);
  if (keyed && keyed.id !== selfId) throw conflict(`Node ${keyed.id} already uses this public key in this network`);
}

/** The route checks these on the body; a node that loses the gateway role is checked here, as is a PATCH. */
function assertGatewayOnly(node: { isGateway: boolean; servesDns: boolean; publicKey: string }) {
  if (node.isGateway) return;
  if (node.servesDns) throw fieldError("servesDns", "Only a gateway node serves DNS");
  if (publicKeyOrNull(node.publicKey) === null) throw fieldError("publicKey", "Required: only a gateway node may await its agent's key");
}

async function assertGatewayRole(db: Db, isGateway: boolean, gatewayId: string | null) {
  if (!isGateway) return;
  if (!gatewayId) throw domainError("A node with the gateway role needs gatewayId (its inventory gateway)");
  const gateway = await db.select({ id: gateways.id }).from(gateways).where(eq(gateways.id, gatewayId)).get();
  if (!gateway) throw domainError(`gatewayId ${gatewayId} is not in the gateway inventory`);
}

/**
 * A node's row read from D1, not from the writer's memory: answers carry the heartbeat columns (applied
 * revisions, last seen, apply error), which reports write outside the writer.
 */
export const freshNode = (db: Db, networkId: string, nodeId: string) =>
  db
    .select()
    .from(nodes)
    .where(and(eq(nodes.id, nodeId), eq(nodes.networkId, networkId)))
    .get();

/** A requested address must be free and usable; otherwise the lowest free one (409 when the range is full). */
function pickAddress(held: HeldNetwork, requested: string | undefined, self?: NodeRow): string {
  const cidr = mustParseCidr(held.network.cidr);
  if (requested !== undefined) {
    // The node's own address is free for itself.
    const own = self ? parseAddress(self.address)?.value : undefined;
    const checked = checkRequestedAddress(cidr, requested, { isTaken: (value) => value !== own && held.addresses.isTaken(value) });
    if (checked.ok) return checked.address;
    if (/in use|used/i.test(checked.reason)) throw conflict(`${requested}: ${checked.reason}`);
    throw domainError(`address ${requested}: ${checked.reason}`);
  }
  const address = held.addresses.lowestFree();
  if (!address) throw conflict(`The network's address range ${held.network.cidr} is exhausted`);
  return address;
}

const policiesUsing = (held: HeldNetwork, nodeId: string) =>
  [...held.policies.values()].filter((policy) => policy.gatewayPath.includes(nodeId)).map((policy) => policy.id);

/** A pool member must stay a gateway node: it leaves its pool first (PATCH /gateway-pools/{id}). */
function assertNotPoolMember(held: HeldNetwork, nodeId: string, leaving: boolean) {
  const pool = leaving ? held.poolOf(nodeId) : undefined;
  if (pool) throw conflict(`The node is a member of gateway pool ${pool.id}; remove it from the pool first`);
}

/**
 * Validates and allocates a new node without writing it, so callers can write it in their own batch.
 * The caller puts the row into `held` once its batch committed.
 */
export async function planNode({ db, memory }: WriterContext, networkId: string, input: NodeInput) {
  const held = await memory.forWrite(db, networkId);
  if (held.nodes.size >= LIMITS.nodesPerNetwork) throw conflict(`A network holds at most ${LIMITS.nodesPerNetwork} nodes`);
  assertNameFitsZone(held, input.name);
  const publicKey = storedPublicKey(input.publicKey);
  assertUniqueIdentity(held, { name: input.name, publicKey });
  const isGateway = input.isGateway ?? false;
  const gatewayId = isGateway ? (input.gatewayId ?? null) : null;
  const servesDns = input.servesDns ?? false;
  assertGatewayOnly({ isGateway, servesDns, publicKey });
  await assertGatewayRole(db, isGateway, gatewayId);
  const now = nowIso();
  const row: NodeRow = {
    id: newId("node"),
    networkId,
    name: input.name,
    publicKey,
    address: pickAddress(held, input.address),
    endpoint: input.endpoint ?? null,
    listenPort: input.listenPort ?? null,
    isGateway,
    gatewayId,
    deviceId: input.deviceId ?? null,
    routingMode: input.routingMode ?? "all",
    routingPolicyIds: input.routingPolicyIds ?? [],
    servesDns,
    revision: held.network.routingRevision + 1,
    appliedRoutingRevision: null,
    appliedDnsRevision: null,
    applyError: null,
    lastSeenAt: null,
    peerReportSeq: null,
    peerResyncFrom: null,
    createdAt: now,
    updatedAt: now,
  };
  return { row, groupId: held.network.groupId, held };
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
  const { row, groupId, held } = await planNode(ctx, networkId, input);
  const placement = row.gatewayId ? await placeOnGateway(ctx, groupId, row.gatewayId) : undefined;
  const insert = placement ? insertWhere(db, nodes, row, placement.onlyIf) : db.insert(nodes).values(row);
  await commitPlaced(
    ctx,
    placement,
    [
      insert.returning({ id: nodes.id }),
      bumpRoutingRevision(db, networkId, placement?.onlyIf),
      bumpDnsRevision(db, networkId, placement?.onlyIf),
    ],
    nodeEvent("node.added", row, groupId),
    row.gatewayId,
  );
  held.putNode(row);
  held.bumped({ routing: true, dns: true });
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
  const held = await ctx.memory.forWrite(db, networkId);
  const current = await freshNode(db, networkId, nodeId);
  if (!current) throw notFound("Node");
  const isGateway = changes.isGateway ?? current.isGateway;
  const usedBy = policiesUsing(held, nodeId);
  if (!isGateway && usedBy.length > 0) throw conflict(`The node is a hop of routing policies ${usedBy.join(", ")}; change them first`);
  assertNotPoolMember(held, nodeId, !isGateway);
  const gatewayId = isGateway ? (changes.gatewayId !== undefined ? changes.gatewayId : current.gatewayId) : null;
  const next: NodeRow = {
    ...current,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    publicKey: changes.publicKey !== undefined ? storedPublicKey(changes.publicKey) : current.publicKey,
    isGateway,
    gatewayId,
    // A node that stops being a gateway stops serving DNS unless this change says otherwise (then it is refused).
    servesDns: changes.servesDns ?? (isGateway ? current.servesDns : false),
    address: changes.address !== undefined ? pickAddress(held, changes.address, current) : current.address,
    revision: held.network.routingRevision + 1,
    updatedAt: nowIso(),
  };
  if (next.name !== current.name) assertNameFitsZone(held, next.name);
  assertUniqueIdentity(held, next, nodeId);
  assertGatewayOnly(next);
  const moved = gatewayId !== current.gatewayId || isGateway !== current.isGateway;
  if (moved) await assertGatewayRole(db, isGateway, gatewayId);
  // A node moved onto a gateway: the gateway must be assigned to the group (checked again by the batch).
  const placement = moved && gatewayId ? await placeOnGateway(ctx, held.network.groupId, gatewayId) : undefined;
  // Policies leaving the overlay at this node (or its pool) now leave at the new gateway.
  if (moved && gatewayId) {
    const egressIds = [nodeId, ...(held.poolOf(nodeId) ? [held.poolOf(nodeId)!.id] : [])];
    await assertMovedEgressFree(db, held, egressIds, () => [gatewayId], "gatewayId");
  }
  // Names, addresses and gateways (the zone's name server is a gateway's address) all shape the zone file.
  const renamed = next.name !== current.name || next.address !== current.address || next.isGateway !== current.isGateway;
  // Heartbeat columns are left alone: heartbeats write them outside the writer.
  const {
    appliedRoutingRevision: _applied,
    appliedDnsRevision: _dns,
    lastSeenAt: _seen,
    applyError: _error,
    peerReportSeq: _seq,
    peerResyncFrom: _resync,
    ...managed
  } = next;
  await commitPlaced(
    ctx,
    placement,
    [
      db
        .update(nodes)
        .set(managed)
        .where(and(eq(nodes.id, nodeId), placement?.onlyIf))
        .returning({ id: nodes.id }),
      bumpRoutingRevision(db, networkId, placement?.onlyIf),
      ...(renamed ? [bumpDnsRevision(db, networkId, placement?.onlyIf)] : []),
    ],
    nodeEvent(action, next, held.network.groupId),
    gatewayId,
  );
  held.putNode(next);
  held.bumped({ routing: true, dns: renamed });
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
  const held = await ctx.memory.forWrite(db, networkId);
  const node = held.nodes.get(nodeId);
  if (!node) throw notFound("Node");
  const usedBy = policiesUsing(held, nodeId);
  if (usedBy.length > 0) throw conflict(`The node is a hop of routing policies ${usedBy.join(", ")}; change them first`);
  assertNotPoolMember(held, nodeId, true);
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
    nodeEvent(action, node, held.network.groupId),
  );
  held.removeNode(nodeId);
  held.bumped({ routing: true, dns: true });
}
