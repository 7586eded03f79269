import type { Db } from "../../db/client";
import type { Env } from "../../lib/env";
import { domainError } from "../../lib/errors";
import { nowIso } from "../../lib/ids";
import { unwrap } from "../../lib/write-result";
import { type DeviceActor, authorizeDevice } from "./device-authorization";
import type { Heartbeat } from "../../wire/heartbeat";
import { publicHostOf } from "../../core/net/public-host";
import { networkWriter } from "../../objects/network/client";

/**
 * One D1 read (the device's access), then the beat goes to the network's writer, which stores it in its hot
 * state (objects/network/hot/: the object's own SQLite, no D1 row). The answer comes after the write, so
 * the device (and its owner) read it back. A delta peer report is checked there against the sequence the hot
 * state holds (objects/network/operations/peer-reports.ts); one that does not build on it is not stored and the answer asks
 * for a full report.
 */
export async function recordDeviceHeartbeat(
  env: Env,
  db: Db,
  actor: DeviceActor,
  deviceId: string,
  report: Heartbeat,
  /** The address the request came from (CF-Connecting-IP): a hint of the device's NAT's public address. */
  sourceAddress: string | null = null,
) {
  const { device, node, network } = await authorizeDevice(db, actor, deviceId);
  if (report.appliedRevision !== null && report.appliedRevision > network.routingRevision) {
    throw domainError(`appliedRevision ${report.appliedRevision} is ahead of the network's revision ${network.routingRevision}`);
  }
  const recorded = await unwrap(
    networkWriter(env, network.id).recordHeartbeat({
      networkId: network.id,
      nodeId: node.id,
      deviceId: device.id,
      at: nowIso(),
      publicHost: publicHostOf(sourceAddress),
      heartbeat: report,
    }),
  );
  const desiredRevision = Math.max(network.routingRevision, recorded.routingRevision ?? 0);
  return {
    desiredRevision,
    configChanged: report.appliedRevision !== desiredRevision,
    ...(recorded.peerReport ? { peerReport: recorded.peerReport } : {}),
  };
}
