import { and, eq } from "drizzle-orm";
import { devices, nodes, tunnelObservations } from "../../../db/schema";
import { conflict, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { LIMITS } from "../../../lib/limits";
import { commit, onceCommitted, type WriterContext } from "../commit";
import { assertMovedEgressFree } from "../egress-claims";
import { commitPlaced, placeOnGateway } from "../authority/gateway-eligibility";
import { insertWhere } from "../../../db/insert-where";
import { storedPublicKey } from "../../../core/net/wireguard-key";
import type { NodeRow } from "../../../db/rows";
import { bumpDnsRevision, bumpRoutingRevision } from "../state";
import {
  assertGatewayOnly,
  assertGatewayRole,
  assertNameFitsZone,
  assertNotPoolMember,
  assertUniqueIdentity,
  pickAddress,
  policiesUsing,
} from "./node-rules";

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
  /** Gateway nodes only: carries pairs with no direct path (docs/nat.md). */
  relay?: boolean;
  deviceId?: string | null;
  routingMode?: NodeRow["routingMode"];
  routingPolicyIds?: string[];
  /** Access-policy tags (docs/access.md). */
  tags?: string[];
}
export type NodeChanges = Partial<Omit<NodeInput, "deviceId">>;

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
  assertGatewayOnly({ isGateway, servesDns, publicKey, relay: input.relay ?? false });
  await assertGatewayRole(db, isGateway, gatewayId);
  const now = nowIso();
  const row: NodeRow = {
    id: newId("node"),
    networkId,
    name: input.name,
    publicKey,
    tags: input.tags ?? [],
    address: pickAddress(held, input.address),
    endpoint: input.endpoint ?? null,
    listenPort: input.listenPort ?? null,
    isGateway,
    gatewayId,
    deviceId: input.deviceId ?? null,
    routingMode: input.routingMode ?? "all",
    routingPolicyIds: input.routingPolicyIds ?? [],
    servesDns,
    relay: isGateway && (input.relay ?? false),
    localEndpoints: [],
    publicHost: null,
    observedEndpoint: null,
    observedAt: null,
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
  // What the writer manages of the node is as held; the columns reports write are stale there and not written.
  const current = held.nodes.get(nodeId);
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
    // Like servesDns: a node that stops being a gateway stops relaying unless this change says otherwise (refused).
    relay: changes.relay ?? (isGateway ? current.relay : false),
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
    await assertMovedEgressFree(ctx.directory.db, held, egressIds, () => [gatewayId], "gatewayId");
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
  held.owners.delete(nodeId);
  // The object's rows of the node go once the removal committed (a staged batch may yet be refused).
  onceCommitted(ctx, () => ctx.hot?.forgetNode(nodeId));
  held.bumped({ routing: true, dns: true });
}
