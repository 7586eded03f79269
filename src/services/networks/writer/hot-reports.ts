import { capture, unwrap } from "../../../lib/write-result";
import type { NetworkHot } from "../hot/network-hot";
import { queryTunnels, type TunnelQuery } from "../hot/tunnel-query";
import { type AgentNodeReport, agentPathReport, heartbeatPathReport, type ReportedHeartbeat, storeReport } from "../operations/heartbeats";
import { peerReportAnswer } from "../operations/peer-reports";
import type { NatClock } from "./nat-clock";
import type { WriteRunner } from "./write-runner";

/**
 * What nodes report, kept in the writer's hot state (services/networks/hot/): device heartbeats and gateway
 * agents' reports are stored there (no D1 row), then what they say of paths goes to the NAT clock; reads of
 * that state come here too. Outside the write queue: none of it is routing state.
 */
export class HotReports {
  constructor(
    private readonly writes: WriteRunner,
    private readonly hot: NetworkHot,
    private readonly nat: NatClock,
  ) {}

  private async open(networkId: string) {
    const held = await this.writes.memory.forRead(this.writes.db, networkId);
    return { held, hot: await this.hot.open(this.writes.db, networkId) };
  }

  heartbeat(beat: ReportedHeartbeat) {
    return capture(async () => {
      const { held, hot } = await this.open(beat.networkId);
      const delta = storeReport(hot, held, beat);
      await unwrap(this.nat.observe(beat.networkId, [heartbeatPathReport(beat, delta)]));
      // What the beat taught (its own endpoints) may have moved the revision: the answer names the one after it.
      return {
        routingRevision: this.writes.memory.heldRoutingRevision(),
        ...(beat.peerReport ? { peerReport: peerReportAnswer(delta) } : {}),
      };
    });
  }

  agentReports(networkId: string, reports: AgentNodeReport[]) {
    return capture(async () => {
      const { held, hot } = await this.open(networkId);
      const deltas = reports.map((report) => storeReport(hot, held, report));
      const paths = reports.flatMap((report, index) => agentPathReport(report, deltas[index] ?? null) ?? []);
      if (paths.length > 0) await unwrap(this.nat.observe(networkId, paths));
      return reports.map((report, index) => ({ nodeId: report.nodeId, peerReport: peerReportAnswer(deltas[index] ?? null) }));
    });
  }

  /** What heartbeating nodes last said of themselves: every node's row, or those of `nodeIds`. */
  nodes(networkId: string, nodeIds?: string[]) {
    return capture(async () => (await this.hot.open(this.writes.db, networkId)).nodes(nodeIds));
  }

  /** A page of the network's tunnels as one reader may see them (hot/tunnel-query.ts). */
  tunnels(networkId: string, query: TunnelQuery) {
    return capture(async () => {
      const { held, hot } = await this.open(networkId);
      return queryTunnels(held, hot, networkId, query);
    });
  }

  /** What one node reports of its tunnels (GET /nodes/:id/paths). */
  tunnelsFrom(networkId: string, nodeId: string) {
    return this.open(networkId).then(({ hot }) => hot.tunnels(nodeId));
  }
}
