import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { insertWhere } from "../../db/insert-where";
import { devices, nodes, routingPolicies } from "../../db/schema";
import { domainError, notFound } from "../../lib/errors";
import { newId, nowIso } from "../../lib/ids";
import { takeEnrolmentKeyUse } from "../../services/enrolment-keys";
import { enrolmentKeyUsable, holdsDevicesIn } from "../../services/live-authority";
import { bumpDnsRevision, bumpRoutingRevision, type NodeRow } from "./network-state";
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
}

/**
 * The device and its node are written in one batch, with the revision bumps: never one without the other.
 * The node is written only if the enrolment is still authorised when the batch runs (the owner still
 * holds a device-holding role, or the key is usable and its issuer still manages the network); every
 * other statement is conditional on the node having been written. Refused: nothing changed, null.
 */
export async function enrolDevice(db: Db, networkId: string, input: DeviceEnrolment): Promise<{ device: DeviceRow; node: NodeRow } | null> {
  const deviceId = newId("dev");
  const node = await planNode(db, networkId, { name: input.name, publicKey: input.publicKey, deviceId });
  const now = nowIso();
  const device: DeviceRow = {
    id: deviceId, networkId, nodeId: node.id, userId: input.userId, enrolmentKeyId: input.enrolmentKeyId,
    platform: input.platform, clientVersion: input.clientVersion, credentialHash: input.credentialHash,
    reportedEndpoint: null, createdAt: now, updatedAt: now,
  };
  const authorised = input.enrolmentKeyId
    ? enrolmentKeyUsable(input.enrolmentKeyId, networkId, now)
    : holdsDevicesIn(input.userId ?? "", networkId);
  const written = sql`exists (select 1 from nodes where id = ${node.id})`;
  const [inserted] = await db.batch([
    insertWhere(db, nodes, node, authorised).returning({ id: nodes.id }),
    insertWhere(db, devices, device, written),
    ...(input.enrolmentKeyId ? [takeEnrolmentKeyUse(db, input.enrolmentKeyId, written)] : []),
    bumpRoutingRevision(db, networkId, written),
    bumpDnsRevision(db, networkId, written),
  ]);
  return inserted.length > 0 ? { device, node } : null;
}

/**
 * Releases the node (and so its address) together with the device and what it observed: deleting the
 * node does all of it, and refuses (409) while a policy names the node as a hop (a CLI-enrolled server).
 */
export async function removeDevice(db: Db, networkId: string, deviceId: string): Promise<void> {
  const device = await db.select().from(devices).where(and(eq(devices.id, deviceId), eq(devices.networkId, networkId))).get();
  if (!device) throw notFound("Device");
  await deleteNode(db, networkId, device.nodeId);
}

/** Which policies route this device's traffic: all, none, or only the listed ones (which must exist here). */
export async function setRoutingPreference(
  db: Db, networkId: string, nodeId: string, mode: NodeRow["routingMode"], policyIds: string[],
): Promise<NodeRow> {
  const wanted = [...new Set(policyIds)].sort();
  if (mode !== "only" && wanted.length > 0) throw domainError(`policyIds apply only to mode "only"`);
  if (wanted.length > 0) {
    const known = new Set((await db.select({ id: routingPolicies.id }).from(routingPolicies)
      .where(eq(routingPolicies.networkId, networkId)).all()).map((policy) => policy.id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) throw domainError(`policyIds ${unknown.join(", ")} are not routing policies of this network`);
  }
  return updateNode(db, networkId, nodeId, { routingMode: mode, routingPolicyIds: wanted });
}
