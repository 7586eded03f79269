import type { Env } from "../../../lib/env";
import { notFound } from "../../../lib/errors";
import type { ConfigRead, ConfigWanted } from "../memory/config-reads";
import type { NodeConfig } from "../routing";
import { networkWriter } from "../writer";

/**
 * Configs of nodes of one network, from the network's writer: it holds the network in memory and
 * builds each revision's topology once for every read (see docs/scale.md). Nodes no longer in the
 * network are left out. With `sinceRevision`, nodes get a delta where one can be computed.
 */
export async function loadNodeConfigs(env: Env, networkId: string, wanted: ConfigWanted[]) {
  const reads = await networkWriter(env, networkId).readConfigs(wanted);
  return new Map<string, ConfigRead>(reads.map((read) => [read.nodeId, read]));
}

/** One node's config read; 404 when it left the network between the caller's access check and this read. */
export async function loadNodeConfigRead(env: Env, networkId: string, nodeId: string, sinceRevision?: number): Promise<ConfigRead> {
  const read = (await loadNodeConfigs(env, networkId, [{ nodeId, sinceRevision }])).get(nodeId);
  if (!read) throw notFound("Node");
  return read;
}

/** One node's whole config. */
export async function loadNodeConfig(env: Env, networkId: string, nodeId: string): Promise<NodeConfig> {
  const read = await loadNodeConfigRead(env, networkId, nodeId);
  if (!read.config) throw new Error("A config read without sinceRevision is always whole");
  return read.config;
}
