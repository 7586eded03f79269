import type { Db } from "../../db/client";
import { networkWriter } from "../../durable-objects/writer-client";
import { domainError, fieldError, unauthorized } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import type { AppRouteHandler, UserAuth } from "../../lib/types";
import { DEVICE_CREDENTIAL_PREFIX } from "../../middleware/client-auth";
import { networkAccess } from "../../services/access";
import { randomToken, sha256 } from "../../services/auth/tokens";
import { deviceAccess } from "../../services/device-access";
import { findEnrolmentKey, keyNotValid } from "../../services/enrolment-keys";
import { loadNodeConfig } from "../../services/node-configs";
import { offlineAfterSeconds } from "../../services/settings/settings";
import { presentNode } from "../nodes/nodes.schemas";
import type * as routes from "./client.routes";
import { presentDevice } from "./client.schemas";

/** Who enrols: a key (headless, no owner) or a signed-in member of the network's group (the owner). */
async function enrolmentTarget(db: Db, body: { networkId?: string; enrolmentKey?: string }, user: UserAuth | undefined) {
  if (body.enrolmentKey) {
    const key = await findEnrolmentKey(db, body.enrolmentKey);
    if (body.networkId && body.networkId !== key.networkId) throw domainError("The enrolment key belongs to another network");
    return { networkId: key.networkId, userId: null, enrolmentKeyId: key.id };
  }
  if (!user) throw unauthorized("Sign in, or enrol with an enrolment key");
  if (!body.networkId) throw fieldError("networkId", "Required when enrolling with a user token");
  const { network } = await networkAccess(db, user, body.networkId, "enrol");
  return { networkId: network.id, userId: user.userId, enrolmentKeyId: null };
}

/**
 * The writer refused the enrolment: the access checked above ended before the write committed. Answer
 * as if it had ended before the request (the same 404/403 a fresh check gives, else 401).
 */
async function refusal(db: Db, target: { networkId: string; enrolmentKeyId: string | null }, user: UserAuth | undefined) {
  if (target.enrolmentKeyId || !user) return keyNotValid();
  await networkAccess(db, user, target.networkId, "enrol");
  return unauthorized("Your access to this network has ended");
}

export const enrol: AppRouteHandler<typeof routes.enrol> = async (c) => {
  const body = c.req.valid("json");
  const user = c.get("auth") as UserAuth | undefined;
  const target = await enrolmentTarget(c.var.db, body, user);
  const credential = `${DEVICE_CREDENTIAL_PREFIX}${randomToken()}`;
  const enrolled = await networkWriter(c.env, target.networkId).enrolDevice({
    ...target, name: body.name, publicKey: body.publicKey, platform: body.platform, clientVersion: body.clientVersion,
    credentialHash: sha256(credential),
  });
  if (!enrolled) throw await refusal(c.var.db, target, user);
  const config = await loadNodeConfig(c.var.db, target.networkId, enrolled.node.id);
  // Read after the config: if the owner's access ended meanwhile, that removal is taking this device out too.
  await deviceAccess(c.var.db, { device: { kind: "device", deviceId: enrolled.device.id } }, enrolled.device.id);
  const device = presentDevice(enrolled.device, enrolled.node, await offlineAfterSeconds(c.env, c.var.db));
  return c.json({ device, node: presentNode(enrolled.node), config, deviceToken: credential }, 201);
};

const actor = (c: { get: (key: "auth" | "device") => unknown }) =>
  ({ user: c.get("auth") as UserAuth | undefined, device: c.get("device") as { kind: "device"; deviceId: string } | undefined });

/**
 * The access check is repeated after the config is read: a removal (or the owner's loss of access) that
 * committed before the read fails the second check, so no config leaves after its revocation committed.
 */
export const config: AppRouteHandler<typeof routes.config> = async (c) => {
  const { device, node } = await deviceAccess(c.var.db, actor(c), c.req.valid("param").id);
  const config = await loadNodeConfig(c.var.db, device.networkId, node.id);
  await deviceAccess(c.var.db, actor(c), device.id);
  return c.json({ deviceId: device.id, config }, 200);
};

/**
 * One access read, then the write goes to the network's writer, which group-commits heartbeats: alone it
 * is written at once; under load many share one D1 batch (src/durable-objects/group-commit.ts). The
 * answer comes after the write, so the device (and its owner) read it back. Heartbeats are not routing
 * changes: the routing writer never writes these columns.
 */
export const heartbeat: AppRouteHandler<typeof routes.heartbeat> = async (c) => {
  const { device, node, network } = await deviceAccess(c.var.db, actor(c), c.req.valid("param").id);
  const body = c.req.valid("json");
  if (body.appliedRevision !== null && body.appliedRevision > network.routingRevision) {
    throw domainError(`appliedRevision ${body.appliedRevision} is ahead of the network's revision ${network.routingRevision}`);
  }
  await networkWriter(c.env, network.id).recordHeartbeat({
    networkId: network.id, nodeId: node.id, deviceId: device.id, appliedRevision: body.appliedRevision,
    endpoint: body.endpoint ?? null, peers: body.peers, at: nowIso(),
  });
  return c.json({ desiredRevision: network.routingRevision, configChanged: body.appliedRevision !== network.routingRevision }, 200);
};
