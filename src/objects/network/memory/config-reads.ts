import type { Db } from "../../../db/client";
import { type ConfigDelta, configCoreFor, configFor, diffConfigs, type NodeConfig, type Topology } from "../../../core/routing";
import { type Probe, probesByProber } from "../../../core/pools/probes";
import type { HeldNetwork } from "./held-network";
import type { NetworkMemory } from "./network-memory";

/**
 * One node's answer: its whole config, or only what changed since the revision the client holds; and
 * the forwarding probes its agent runs (gateway pools; empty for most nodes).
 */
export type ConfigRead =
  | { nodeId: string; config: NodeConfig; delta?: undefined; probes: Probe[] }
  | { nodeId: string; delta: ConfigDelta; config?: undefined; probes: Probe[] };

/** A node whose config is wanted, and the revision of the one its client holds (if any). */
export interface ConfigWanted {
  nodeId: string;
  sinceRevision?: number;
}

/**
 * Config reads served from the writer's memory: no row of the network is read (one row, its revisions,
 * is checked), and the topology of a revision is built once for every read of it. With `sinceRevision`
 * a node gets a delta when the topology of that revision is still kept, else its whole config.
 * Nodes not in the network are left out.
 */
export async function readConfigs(memory: NetworkMemory, db: Db, networkId: string, wanted: ConfigWanted[]) {
  const held = await memory.forRead(db, networkId);
  const current = memory.topologies.current(held);
  const topologyAt = (revision: number) => (revision === held.network.routingRevision ? current : memory.topologies.at(revision));
  const probes = heldProbes(memory, held);
  return wanted
    .filter(({ nodeId }) => held.nodes.has(nodeId))
    .map(({ nodeId, sinceRevision }): ConfigRead => {
      const older = sinceRevision === undefined ? undefined : topologyAt(sinceRevision);
      const own = probes.get(nodeId) ?? [];
      if (older?.nodes.has(nodeId)) {
        // A node an access-only change left alone gets its empty delta without rendering either config.
        const delta =
          older !== current && memory.topologies.accessChange(older, current).unchanged(nodeId)
            ? unchangedDelta(older, current, nodeId)
            : diffConfigs(configCoreFor(older, nodeId), configCoreFor(current, nodeId));
        return { nodeId, delta, probes: own };
      }
      return { nodeId, config: configFor(current, nodeId), probes: own };
    });
}

/** The delta between two revisions of a config that did not change: only the revision moves. */
function unchangedDelta(older: Topology, current: Topology, nodeId: string): ConfigDelta {
  return {
    nodeId,
    networkId: current.network.id,
    fromRevision: older.network.routingRevision,
    routingRevision: current.network.routingRevision,
    peersUpserted: [],
    peersRemoved: [],
  };
}

/**
 * Every prober's probes at the held revision: what the desired state asks of each gateway node. Computed once
 * per topology (a pool, policy or address change moves the routing revision, hence the topology), not at every
 * report a prober sends (each one checks its results against these).
 */
const probesByTopology = new WeakMap<Topology, Map<string, Probe[]>>();
function heldProbes(memory: NetworkMemory, held: HeldNetwork) {
  if (held.pools.size === 0) return new Map<string, Probe[]>();
  const topology = memory.topologies.current(held);
  const known = probesByTopology.get(topology);
  if (known) return known;
  const accepted = new Set(topology.policiesById.map(({ policy }) => policy.id));
  const probes = probesByProber(held.policies.values(), held.pools, (nodeId) => held.nodes.get(nodeId)?.address, accepted);
  probesByTopology.set(topology, probes);
  return probes;
}

/** The probes each of these nodes is asked to run now (absent: none): a report's probe results count only within them. */
export async function readProbes(memory: NetworkMemory, db: Db, networkId: string, nodeIds: string[]): Promise<AssignedProbes[]> {
  const probes = heldProbes(memory, await memory.forRead(db, networkId));
  return nodeIds.flatMap((nodeId) => (probes.has(nodeId) ? [{ nodeId, probes: probes.get(nodeId)! }] : []));
}

export interface AssignedProbes {
  nodeId: string;
  probes: Probe[];
}
