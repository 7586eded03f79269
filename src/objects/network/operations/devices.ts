import { and, eq, sql } from "drizzle-orm";
import { insertWhere } from "../../../db/insert-where";
import { devices, nodes } from "../../../db/schema";
import { domainError, notFound } from "../../../lib/errors";
import { newId, nowIso } from "../../../lib/ids";
import { enrolmentKeyUsable, holdsDevicesIn } from "../../../services/live-authority";
import { actorOf, commit, type WriterContext } from "../commit";
import { takeEnrolmentKeyUse } from "../../../services/networks/enrolment-keys";
import { nodeOwner, ownerOf } from "../access-policy/access-state";
import type { NodeRow } from "../../../db/rows";
import { bumpDnsRevision, bumpRoutingRevision } from "../state";
import { deleteNode, planNode, updateNode } from "./nodes";

export type DeviceRow = typeof devices.$inferSelect;

export interface DeviceEnrolment {
  userId: string | null;
  enrolmentKeyId: string | null;
  name: string;
  publicKey: string;
  platform: string;
  clientVersion: string;
  credentialHash: string;
  /** Access-policy tags the node starts with: an enrolment key's (docs/access.md), none for an owner's own enrolment. */
  tags: string[];
}

/**
 * The device and its node are written in one batch, with the revision bumps: never one without the other.
 * The node is written only if the enrolment is still authorised when the batch runs (the owner still
 * holds a device-holding role, or the key is usable and its issuer still manages the network); every
 * other statement, the audit row and the notification are conditional on the node having been written.
 * Refused: nothing changed, null.
 */
export async function enrolDevice(
  ctx: WriterContext,
  networkId: string,
  input: DeviceEnrolment,
): Promise<{ device: DeviceRow; node: NodeRow } | null> {
  const { db } = ctx;
  const deviceId = newId("dev");
  const {
    row: node,
    groupId,
    held,
  } = await planNode(ctx, networkId, {
    name: input.name,
    publicKey: input.publicKey,
    deviceId,
    tags: input.tags,
  });
  const now = nowIso();
  const device: DeviceRow = {
    id: deviceId,
    networkId,
    nodeId: node.id,
    userId: input.userId,
    enrolmentKeyId: input.enrolmentKeyId,
    platform: input.platform,
    clientVersion: input.clientVersion,
    credentialHash: input.credentialHash,
    reportedEndpoint: null,
    createdAt: now,
    updatedAt: now,
  };
  const announced = {
    id: device.id,
    name: node.name,
    platform: device.platform,
    clientVersion: device.clientVersion,
    userId: device.userId,
    nodeId: node.id,
    address: node.address,
  };
  const authorised = input.enrolmentKeyId
    ? enrolmentKeyUsable(input.enrolmentKeyId, networkId, now)
    : holdsDevicesIn(input.userId ?? "", networkId);
  const written = sql`exists (select 1 from nodes where id = ${node.id})`;
  const nodeWritten = (results: unknown[]) => (results[0] as unknown[]).length > 0;
  const results = await commit(
    ctx,
    [
      insertWhere(db, nodes, node, authorised).returning({ id: nodes.id }),
      insertWhere(db, devices, device, written),
      // Whose the device is, as this commit sees it: `user:` and `role:` selectors match it from this revision on.
      ...(input.userId ? [ownerOf(db, input.userId, groupId)] : []),
      ...(input.enrolmentKeyId ? [takeEnrolmentKeyUse(db, input.enrolmentKeyId, written)] : []),
      bumpRoutingRevision(db, networkId, written),
      bumpDnsRevision(db, networkId, written),
    ],
    {
      action: "device.enrolled",
      resourceId: device.id,
      networkId,
      groupId,
      notify: {
        type: "device.enrolled",
        networkId,
        groupId,
        subjectId: device.id,
        data: { device: announced, actor: actorOf(ctx) },
        device: { ownerId: device.userId },
      },
    },
    { onlyIf: written, happened: nodeWritten },
  );
  if (!nodeWritten(results)) return null;
  const [owner] = input.userId ? (results[2] as Parameters<typeof nodeOwner>[0][]) : [];
  if (owner) held.owners.set(node.id, nodeOwner(owner));
  held.putNode(node);
  held.bumped({ routing: true, dns: true });
  return { device, node };
}

/**
 * Releases the node (and so its address) together with the device and what it observed: deleting the
 * node does all of it, and refuses (409) while a policy names the node as a hop (a CLI-enrolled server).
 */
export async function removeDevice(ctx: WriterContext, networkId: string, deviceId: string): Promise<void> {
  const device = await ctx.db
    .select()
    .from(devices)
    .where(and(eq(devices.id, deviceId), eq(devices.networkId, networkId)))
    .get();
  if (!device) throw notFound("Device");
  await deleteNode(ctx, networkId, device.nodeId, "device.removed");
}

/** Which policies route this device's traffic: all, none, or only the listed ones (which must exist here). */
export async function setRoutingPreference(
  ctx: WriterContext,
  networkId: string,
  nodeId: string,
  mode: NodeRow["routingMode"],
  policyIds: string[],
): Promise<NodeRow> {
  const wanted = [...new Set(policyIds)].sort();
  if (mode !== "only" && wanted.length > 0) throw domainError(`policyIds apply only to mode "only"`);
  if (wanted.length > 0) {
    const held = await ctx.memory.forWrite(ctx.db, networkId);
    const unknown = wanted.filter((id) => !held.policies.has(id));
    if (unknown.length > 0) throw domainError(`policyIds ${unknown.join(", ")} are not routing policies of this network`);
  }
  return updateNode(ctx, networkId, nodeId, { routingMode: mode, routingPolicyIds: wanted }, "device.routing-changed");
}

/** A device's name is its node's name (and so its DNS name). */
export const renameDevice = (ctx: WriterContext, networkId: string, nodeId: string, name: string) =>
  updateNode(ctx, networkId, nodeId, { name }, "device.renamed");
