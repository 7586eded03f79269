import type { Env } from "../../../lib/env";
import { notFound } from "../../../lib/errors";
import { unwrap } from "../../../lib/write-result";
import type { ConfigRead, ConfigWanted } from "../../../objects/network/client";
import type { NodeConfig } from "../../../core/routing";
import { networkWriter } from "../../../objects/network/client";

/**
 * Configs of nodes of one network, from the network's writer: it holds the network in memory and
 * builds each revision's topology once for every read (see docs/scale.md). Nodes no longer in the
 * network are left out. With `sinceRevision`, nodes get a delta where one can be computed.
 */
export async function loadNodeConfigs(env: Env, networkId: string, wanted: ConfigWanted[]) {
  const reads = await unwrap(networkWriter(env, networkId).readConfigs(networkId, wanted));
  return new Map<string, ConfigRead>(reads.map((read) => [read.nodeId, read]));
}

/**
 * One node's config read; 404 when it left the network between the caller's access check and this read.
 * With `waitMs` (and `sinceRevision`), a long poll: the writer answers once that revision is no longer
 * current or the time is up, in the same trip.
 */
export async function loadNodeConfigRead(env: Env, networkId: string, nodeId: string, sinceRevision?: number, waitMs = 0) {
  const writer = networkWriter(env, networkId);
  const reads =
    sinceRevision !== undefined && waitMs > 0
      ? await unwrap(writer.awaitConfig(networkId, { nodeId, sinceRevision }, waitMs))
      : await unwrap(writer.readConfigs(networkId, [{ nodeId, sinceRevision }]));
  const read: ConfigRead | undefined = reads.find((entry) => entry.nodeId === nodeId);
  if (!read) throw notFound("Node");
  return read;
}

/** One node's whole config. */
export async function loadNodeConfig(env: Env, networkId: string, nodeId: string): Promise<NodeConfig> {
  const read = await loadNodeConfigRead(env, networkId, nodeId);
  if (!read.config) throw new Error("A config read without sinceRevision is always whole");
  return read.config;
}
