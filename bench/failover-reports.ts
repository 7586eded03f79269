// What one gateway report costs as a prober's agent sends it (issue 27): its node's probes from the desired
// state (all up), and a delta peer report built by wgo's own code (cli/peer-report.mjs) over the tunnels of
// the node's config, ACTIVE_TUNNELS of them in use (as bench/real-heartbeats.ts counts a device's). Each agent first sends a full report (as `wgo gateway run` does on its
// first round), then wrk drives the steady state: the agents in turn, each request on the base the server
// answered last for that agent (a body per agent: its node, its probes, its base).
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { agentCall, type BenchAgent } from "./failover-network.ts";
import { ACTIVE_TUNNELS } from "./real-heartbeats.ts";
import { runWrk, type WrkResult, type WrkTarget } from "./wrk.ts";

const load = (name: string): Promise<any> => import(/* @vite-ignore */ `../cli/${name}`);

export interface ReportShape {
  /** The body of agent 0's steady-state report, for its size. */
  bodyBytes: number;
  probesPerReport: number;
  peersPerReport: number;
  tunnelsInUse: number;
}

/** A node's interface as `wg show dump` would list it: the first ACTIVE_TUNNELS peers handshaken and moving traffic. */
const dumpOf = (agent: BenchAgent, at: number, moved: number) =>
  agent.peerKeys.map((publicKey, i) =>
    i < ACTIVE_TUNNELS
      ? { publicKey, latestHandshake: at - i, rxBytes: 5e8 + i + moved, txBytes: 2e8 + i + moved }
      : { publicKey, latestHandshake: 0, rxBytes: 0, txBytes: 0 },
  );

/** The node's entry of POST /agents/me/report, as cli/gateway/reporter.mjs builds it. */
export const reportEntry = (agent: BenchAgent, up: boolean, peerReport: unknown) => ({
  nodeId: agent.nodeId,
  appliedRoutingRevision: agent.routing,
  appliedDnsRevision: agent.dns,
  error: null,
  probes: agent.probes.map((probe) => ({ ...probe, ok: up })),
  peerReport,
});

/** Each agent's first, full report; returns the steady-state body split around its base, and the base. */
export async function firstReports(server: WorkerServer, agents: BenchAgent[]) {
  const { countersOf, emptyReportState, nextPage, reportPeers } = await load("peer-report.mjs");
  const at = Math.floor(Date.now() / 1000);
  const steady = [];
  for (const agent of agents) {
    const done = await reportPeers(emptyReportState(), countersOf(dumpOf(agent, at, 0)), async (peerReport: unknown) => {
      const answer = await agentCall(server, agent.credential, "POST", "/agents/me/report", {
        nodes: [reportEntry(agent, true, peerReport)],
      });
      return answer.nodes[0].peerReport;
    });
    const page = nextPage(done.state, countersOf(dumpOf(agent, at, 4096)));
    const body = JSON.stringify({ nodes: [reportEntry(agent, true, { ...page, base: 123_456_789 })] });
    const [prefix, suffix] = body.split("123456789") as [string, string];
    steady.push({ credential: agent.credential, prefix, suffix, seq: done.state.seq as number, bytes: Buffer.byteLength(body) });
  }
  const shape: ReportShape = {
    bodyBytes: steady[0]!.bytes,
    probesPerReport: agents[0]!.probes.length,
    peersPerReport: agents[0]!.peerKeys.length,
    tunnelsInUse: Math.min(ACTIVE_TUNNELS, agents[0]!.peerKeys.length),
  };
  return { steady, shape };
}

export type SteadyReport = { credential: string; prefix: string; suffix: string; seq: number };

/** wrk's target for the agents' steady-state reports: agents in turn, each thread its own share, each agent's bases rising by one. */
export function reportTarget(steady: SteadyReport[]): WrkTarget {
  const path = "/api/v1/agents/me/report";
  return {
    label: `POST /agents/me/report, ${steady.length} prober agents in turn`,
    method: "POST",
    path,
    rotate: steady.map((s) => ({ path, token: s.credential })),
    sequenced: { prefix: steady.map((s) => s.prefix), suffix: steady.map((s) => s.suffix), seqs: steady.map((s) => s.seq) },
  };
}

/** wrk over the agents' steady-state reports, each agent's requests in order on its own base. */
export const wrkReports = (server: WorkerServer, steady: SteadyReport[], scratch: string): Promise<WrkResult> =>
  runWrk(server.baseUrl, reportTarget(steady), scratch);
