import type { Db } from "../../db/client";
import type { Env } from "../../lib/env";
import { domainError, fieldError, unauthorized } from "../../lib/errors";
import { unwrap } from "../../lib/write-result";
import type { UserPrincipal } from "../../lib/types";
import { authorizeNetwork } from "../authorization";
import type { AuditContext } from "../audit/audit-trail";
import { randomToken, sha256 } from "../auth/tokens";
import { deviceStillStands } from "./device-authorization";
import { findEnrolmentKey, keyNotValid } from "./enrolment-keys";
import { loadNodeConfig } from "./views/node-configs";
import { networkWriter } from "../../objects/network/client";

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
    // The key's tags were checked and authorised when it was made, and a key is never edited after.
    return { networkId: key.networkId, userId: null, enrolmentKeyId: key.id, tags: key.tags };
  }
  if (!user) throw unauthorized("Sign in, or enrol with an enrolment key");
  if (!body.networkId) throw fieldError("networkId", "Required when enrolling with a user token");
  const { network } = await authorizeNetwork(db, user, body.networkId, "enrol");
  // A member cannot tag their own device: a device enrolled by its owner starts untagged.
  return { networkId: network.id, userId: user.userId, enrolmentKeyId: null, tags: [] };
}

/**
 * The writer refused the enrolment: the access checked above ended before the write committed. Answer
 * as if it had ended before the request (the same 404/403 a fresh check gives, else 401).
 */
async function refusal(db: Db, target: { networkId: string; enrolmentKeyId: string | null }, user: UserPrincipal | undefined) {
  if (target.enrolmentKeyId || !user) return keyNotValid();
  await authorizeNetwork(db, user, target.networkId, "enrol");
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
