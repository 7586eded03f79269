import { capture, unwrap, type WriteResult } from "../../../lib/write-result";
import type { NetworkHot } from "../hot/network-hot";
import { queryTunnels, type TunnelQuery } from "../hot/tunnel-query";
import {
  agentPathReport,
  heartbeatPathReport,
  type ReceivedAgentReport,
  type ReceivedHeartbeat,
  selfOfAgentReport,
  selfOfHeartbeat,
  storeReport,
} from "../operations/heartbeats";
import { peerReportAnswer } from "../operations/peer-reports";
import { appliedRevisions, noteIssued, noteReports } from "../views/config-currency";
import { nodePaths } from "../views/node-paths";
import type { PresenceClock } from "../clocks/presence-clock";
import type { NatClock } from "../clocks/nat-clock";
import type { WriteRunner } from "../runner/write-runner";

/**
 * What nodes report, kept in the writer's hot state (objects/network/hot/): device heartbeats and gateway
 * agents' reports are stored there (no D1 row), then what they say of paths goes to the NAT clock; reads of
 * that state come here too. Outside the write queue: none of it is routing state.
 */
export class HotReports {
  constructor(
    private readonly writes: WriteRunner,
    private readonly hot: NetworkHot,
    private readonly nat: NatClock,
    /** Told of each report, so a device that comes back is judged online soon (clocks/presence-clock.ts). */
    private readonly presence: PresenceClock,
  ) {}

  private async open(networkId: string) {
    const held = await this.writes.memory.forRead(this.writes.db, networkId);
    return { held, hot: await this.hot.open(this.writes.db, networkId) };
  }

  /**
   * For a report: the copy the writer holds, as it is, without reading D1's revisions (a beat reads no D1 row).
   * Routing changes all go through this writer, so the copy is the network's; a report uses it only for its
   * peers' keys, its endpoints and the revision its answer names (config reads check D1 before they serve).
   */
  private async openForReport(networkId: string) {
    const copy = this.writes.memory.heldCopy();
    if (copy?.network.id !== networkId) return this.open(networkId);
    return { held: copy, hot: await this.hot.open(this.writes.db, networkId) };
  }

  heartbeat(beat: ReceivedHeartbeat) {
    return capture(async () => {
      const { held, hot } = await this.openForReport(beat.networkId);
      const self = selfOfHeartbeat(beat);
      const delta = storeReport(hot, held, self, beat.at, beat.heartbeat);
      noteReports(this.hot.configs, this.writes.memory.topologies, held, [self]);
      await unwrap(this.nat.observe(beat.networkId, [heartbeatPathReport(beat, delta)], held));
      await this.presence.noticeReport(beat.networkId, beat.nodeId);
      // What the beat taught (its own endpoints) may have moved the revision: the answer names the one after it.
      return {
        routingRevision: this.writes.memory.heldRoutingRevision(),
        ...(beat.heartbeat.peerReport ? { peerReport: peerReportAnswer(delta) } : {}),
      };
    });
  }

  agentReports(networkId: string, reports: ReceivedAgentReport[]) {
    return capture(async () => {
      const { held, hot } = await this.openForReport(networkId);
      const selves = reports.map(selfOfAgentReport);
      // When each node was heard before this report: one not heard for a while may be the member a pool waits for.
      const before = new Map(hot.nodes(selves.map((self) => self.nodeId)).map((row) => [row.nodeId, row.lastSeenAt]));
      const deltas = reports.map((received, index) => storeReport(hot, held, selves[index]!, received.at, received.report));
      noteReports(this.hot.configs, this.writes.memory.topologies, held, selves);
      const paths = reports.flatMap((report, index) => agentPathReport(report, deltas[index] ?? null) ?? []);
      if (paths.length > 0) await unwrap(this.nat.observe(networkId, paths, held));
      await this.presence.noticeReport(networkId); // their tunnels reach /metrics through the check
      return selves.map(({ nodeId }, index) => ({
        nodeId,
        peerReport: peerReportAnswer(deltas[index] ?? null),
        seenBefore: before.get(nodeId) ?? null,
      }));
    });
  }

  /** What heartbeating nodes last said of themselves: every node's row, or those of `nodeIds`. */
  nodes(networkId: string, nodeIds?: string[]) {
    return capture(async () => (await this.hot.open(this.writes.db, networkId)).nodes(nodeIds));
  }

  /** Each node's applied revision as runtime status counts it (views/config-currency.ts). */
  appliedRevisions(networkId: string) {
    return this.writes.read(networkId, async (held, topology) => {
      const hot = await this.hot.open(this.writes.db, networkId);
      return appliedRevisions(held, topology, hot.nodes(), this.hot.configs);
    });
  }

  /** After an enrolment: the config the new device was issued (all a WireGuard app without wgo ever runs). */
  async issued<T extends { node: { id: string } } | null>(networkId: string, write: Promise<WriteResult<T>>): Promise<WriteResult<T>> {
    const result = await write;
    const enrolled = result.ok ? result.value : null;
    if (enrolled) await this.writes.read(networkId, (held, topology) => noteIssued(this.hot.configs, held, topology(), enrolled.node.id));
    return result;
  }

  /** A page of the network's tunnels as one reader may see them (hot/tunnel-query.ts). */
  tunnels(networkId: string, query: TunnelQuery) {
    return capture(async () => {
      const { held, hot } = await this.open(networkId);
      return queryTunnels(held, hot, networkId, query);
    });
  }

  /** GET /nodes/:id/paths (views/node-paths.ts): the held network, its relays and the node's tunnel rows. */
  paths(networkId: string, nodeId: string, devicePeersSeen: string[] | null) {
    return this.writes.read(networkId, async (held, topology) => {
      const { hot } = await this.open(networkId);
      return nodePaths(hot.tunnels(nodeId), held, topology(), nodeId, devicePeersSeen);
    });
  }
}
