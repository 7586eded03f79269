import type { Db } from "../../db/client";
import type { Env } from "../../lib/env";
import { type DeviceActor, authorizeDevice, deviceStillStands } from "./device-authorization";
import { loadNodeConfigRead } from "./views/node-configs";

/** A device reading its own config (POST /client/devices/{id}/config), whole, as a delta, or after a long poll. */

/**
 * The access check is repeated after the config is read: a removal (or the owner's loss of access) that
 * committed before the read fails the second check, so no config leaves after its revocation committed.
 * With `sinceRevision` (the revision the device holds) the answer is a delta when the writer still
 * keeps that revision's topology, else the whole config (docs/scale.md). With `waitSeconds` too, a long
 * poll: the network's writer holds the request until that revision is no longer current (a failover, any
 * routing change) or the time is up, then the answer is read; the access check after the read still decides.
 */
export async function deviceConfig(env: Env, db: Db, actor: DeviceActor, deviceId: string, sinceRevision?: number, waitSeconds = 0) {
  const { device, node } = await authorizeDevice(db, actor, deviceId);
  // A long poll is one trip to the writer: it waits, then reads (views/node-configs.ts).
  const wait = sinceRevision !== undefined && waitSeconds > 0 ? waitSeconds * 1000 : 0;
  const read = await loadNodeConfigRead(env, device.networkId, node.id, sinceRevision, wait);
  await (actor.kind === "device" ? deviceStillStands(db, device.id) : authorizeDevice(db, actor, device.id));
  return read.delta ? { deviceId: device.id, delta: read.delta } : { deviceId: device.id, config: read.config };
}
