import type { Db } from "../../db/client";
import type { Env } from "../../lib/env";
import { domainError, fieldError, unauthorized } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { unwrap } from "../../lib/write-result";
import type { UserPrincipal } from "../../lib/types";
import { networkAccess } from "../access";
import type { AuditContext } from "../audit/audit-trail";
import { randomToken, sha256 } from "../auth/tokens";
import { type DeviceActor, deviceAccess, deviceStillStands } from "./device-access";
import { admitPeerDelta, type PeerDelta, peerReportAnswer } from "./operations/peer-reports";
import { findEnrolmentKey, keyNotValid } from "./enrolment-keys";
import { loadNodeConfig, loadNodeConfigRead } from "./views/node-configs";
import { networkWriter } from "./writer/network-writer";

/** Device credentials are opaque; the prefix tells them from user, agent and enrolment tokens. */
export const DEVICE_CREDENTIAL_PREFIX = "dvc_";

export interface EnrolmentRequest {
  networkId?: string;
  enrolmentKey?: string;
  name: string;
  publicKey: string;
  platform: string;
  clientVersion: string;
}

/** Who enrols: a key (headless, no owner) or a signed-in member of the network's group (the owner). */
async function enrolmentTarget(db: Db, body: EnrolmentRequest, user: UserPrincipal | undefined) {
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
async function refusal(db: Db, target: { networkId: string; enrolmentKeyId: string | null }, user: UserPrincipal | undefined) {
  if (target.enrolmentKeyId || !user) return keyNotValid();
  await networkAccess(db, user, target.networkId, "enrol");
  return unauthorized("Your access to this network has ended");
}

/** Enrols a device through the network's writer; the credential is returned once, only its hash is kept. */
export async function enrolDevice(env: Env, db: Db, body: EnrolmentRequest, user: UserPrincipal | undefined, audit: AuditContext) {
  const target = await enrolmentTarget(db, body, user);
  const credential = `${DEVICE_CREDENTIAL_PREFIX}${randomToken()}`;
  const enrolled = await unwrap(
    networkWriter(env, target.networkId).enrolDevice(
      target.networkId,
      {
        ...target,
        name: body.name,
        publicKey: body.publicKey,
        platform: body.platform,
        clientVersion: body.clientVersion,
        credentialHash: sha256(credential),
      },
      audit,
    ),
  );
  if (!enrolled) throw await refusal(db, target, user);
  const config = await loadNodeConfig(env, target.networkId, enrolled.node.id);
  // Read after the config: if the owner's access ended meanwhile, that removal is taking this device out too.
  await deviceStillStands(db, enrolled.device.id);
  return { ...enrolled, config, credential };
}

/**
 * The access check is repeated after the config is read: a removal (or the owner's loss of access) that
 * committed before the read fails the second check, so no config leaves after its revocation committed.
 * With `sinceRevision` (the revision the device holds) the answer is a delta when the writer still
 * keeps that revision's topology, else the whole config (docs/scale.md). With `waitSeconds` too, a long
 * poll: the network's writer holds the request until that revision is no longer current (a failover, any
 * routing change) or the time is up, then the answer is read; the access check after the read still decides.
 */
export async function deviceConfig(env: Env, db: Db, actor: DeviceActor, deviceId: string, sinceRevision?: number, waitSeconds = 0) {
  const { device, node } = await deviceAccess(db, actor, deviceId);
  // A long poll is one trip to the writer: it waits, then reads (views/node-configs.ts).
  const wait = sinceRevision !== undefined && waitSeconds > 0 ? waitSeconds * 1000 : 0;
  const read = await loadNodeConfigRead(env, device.networkId, node.id, sinceRevision, wait);
  await (actor.kind === "device" ? deviceStillStands(db, device.id) : deviceAccess(db, actor, device.id));
  return read.delta ? { deviceId: device.id, delta: read.delta } : { deviceId: device.id, config: read.config };
}

export interface HeartbeatReport {
  appliedRevision: number | null;
  endpoint?: string | null;
  peers?: { publicKey: string; lastHandshakeAt: string | null; rxBytes: number; txBytes: number }[];
  peerReport?: PeerDelta;
}

/**
 * One access read, then the write goes to the network's writer, which group-commits heartbeats: alone it
 * is written at once; under load many share one D1 batch (src/lib/group-commit.ts). The
 * answer comes after the write, so the device (and its owner) read it back. Heartbeats are not routing
 * changes: the routing writer never writes these columns. A delta peer report is checked against the
 * base the access read found on the node (operations/peer-reports.ts); one that does not build on it is
 * not stored and the answer asks for a full report.
 */
export async function recordDeviceHeartbeat(env: Env, db: Db, actor: DeviceActor, deviceId: string, report: HeartbeatReport) {
  const { device, node, network } = await deviceAccess(db, actor, deviceId);
  if (report.appliedRevision !== null && report.appliedRevision > network.routingRevision) {
    throw domainError(`appliedRevision ${report.appliedRevision} is ahead of the network's revision ${network.routingRevision}`);
  }
  const at = nowIso();
  const delta = report.peerReport ? admitPeerDelta(node, report.peerReport, at) : null;
  await unwrap(
    networkWriter(env, network.id).recordHeartbeat({
      networkId: network.id,
      nodeId: node.id,
      deviceId: device.id,
      appliedRevision: report.appliedRevision,
      endpoint: report.endpoint ?? null,
      peers: report.peers,
      ...(delta ? { delta } : {}),
      at,
    }),
  );
  return {
    desiredRevision: network.routingRevision,
    configChanged: report.appliedRevision !== network.routingRevision,
    ...(report.peerReport ? { peerReport: peerReportAnswer(delta) } : {}),
  };
}
