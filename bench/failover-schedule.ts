// The agent's own schedule (issue 27), from wgo's constants rather than copied numbers: what one gateway
// sends the API in steady state and around a failover, and what a probe costs on the data plane.
const load = (name: string): Promise<any> => import(/* @vite-ignore */ `../cli/gateway/${name}`);

/** An echo request or reply: 20 bytes IPv4 + 8 ICMP + 56 of data (ping's default), before the tunnel's overhead. */
const ECHO_BYTES = 84;
/** A waiting long poll re-reads its served nodes this often (src/services/agents/long-poll.ts CHECK_EVERY_MS, not exported). */
const POLL_CHECK_SECONDS = 1;
/** WireGuard's per-packet cost on IPv4 (outer IP 20 + UDP 8 + its header 16 + its tag 16). */
const WIREGUARD_OVERHEAD = 60;

export interface AgentSchedule {
  reportEveryMs: number;
  longPollSeconds: number;
  turnGapMs: number;
  probeIntervalMs: number;
  downAfter: number;
  /** Steady state: the periodic report, plus the report after every poll answer (a 304 at the poll's end too). */
  reportsPerSecond: number;
  pollsPerSecond: number;
  requestsPerSecond: number;
  /** Echoes a probe sends a second, and its bytes a second both ways, inside the tunnel and on the wire. */
  echoesPerSecond: number;
  probeBytesPerSecond: number;
  probeWireBytesPerSecond: number;
}

export async function agentSchedule(): Promise<AgentSchedule> {
  const { REPORT_EVERY_MS } = await load("run-loop.mjs");
  const { LONG_POLL_SECONDS } = await load("agent-api.mjs");
  const { TURN_REPORT_GAP_MS } = await load("reporter.mjs");
  const { DEFAULT_PROBE_RULES } = await load("probe-judge.mjs");
  const reportsPerSecond = 1000 / REPORT_EVERY_MS + 1 / LONG_POLL_SECONDS;
  const pollsPerSecond = 1 / LONG_POLL_SECONDS;
  const echoesPerSecond = 1000 / DEFAULT_PROBE_RULES.intervalMs;
  return {
    reportEveryMs: REPORT_EVERY_MS,
    longPollSeconds: LONG_POLL_SECONDS,
    turnGapMs: TURN_REPORT_GAP_MS,
    probeIntervalMs: DEFAULT_PROBE_RULES.intervalMs,
    downAfter: DEFAULT_PROBE_RULES.downAfter,
    reportsPerSecond,
    pollsPerSecond,
    requestsPerSecond: reportsPerSecond + pollsPerSecond,
    echoesPerSecond,
    probeBytesPerSecond: echoesPerSecond * ECHO_BYTES * 2,
    probeWireBytesPerSecond: echoesPerSecond * (ECHO_BYTES + WIREGUARD_OVERHEAD) * 2,
  };
}

export interface UnitCosts {
  /** The writer's rows per steady report (its readProbes RPC), measured. */
  writerRowsPerReport: { read: number; written: number };
  /** One alarm tick over `pools` pools, measured. */
  tick: { pools: number; rowsRead: number; statements: number };
  /** One failover, measured. */
  failover: { rowsRead: number; rowsWritten: number };
  /** Probes a prober runs (its desired state's, measured). */
  probesPerProber: number;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Figures at `gateways` gateways, each a prober beside a pool (the upper bound: every report carries probes). */
export function atScale(s: AgentSchedule, costs: UnitCosts, gateways: number): string[] {
  const reports = gateways * s.reportsPerSecond;
  const polls = gateways * s.pollsPerSecond;
  // Each report with probes asks the writer for its assignment (readProbes); each long poll waits in the writer.
  const writerRpcs = reports + polls;
  // 4 gateways a chain (prober, two members, next hop), 100 chains a network at the pool limit.
  const fullNetworks = gateways / 4 / costs.tick.pools;
  const oneChainNetworks = gateways / 4;
  // The meter counts the tick's member read (a join) without its rows: at least one row per member (2 a pool) more.
  const tickRead = costs.tick.rowsRead + 2 * costs.tick.pools;
  const perPoolRead = tickRead / costs.tick.pools;
  const tickEvery = 2;
  return [
    `- reports/s: ${fmt(reports)} (${gateways} × ${fmt(s.reportsPerSecond, 3)}); long polls/s: ${fmt(polls)}; requests/s to the API: ${fmt(reports + polls)}`,
    `- long polls held open: ${gateways} at any time (each a writer wait and a D1 query of its served nodes every ${POLL_CHECK_SECONDS} s: ${fmt(gateways / POLL_CHECK_SECONDS)} queries/s, from the code, not metered)`,
    `- writer RPCs/s: ${fmt(writerRpcs)} (a readProbes per report with probes, a wait per long poll), spread over the networks' writers`,
    `- writer D1 rows/s from reports: ${fmt(reports * costs.writerRowsPerReport.read)} read, ${fmt(reports * costs.writerRowsPerReport.written)} written (measured per report)`,
    `- the reports' own batches (in the Worker, not metered): at least ${fmt(reports * (1 + costs.probesPerProber))} rows written/s (the node's row and one probe row per probe)`,
    `- alarm evaluations/s: ${fmt(fullNetworks / tickEvery, 2)} if the gateways form ${fmt(fullNetworks, 1)} networks of ${costs.tick.pools} chains (at least ${fmt((fullNetworks * tickRead) / tickEvery)} rows read/s),`,
    `  up to ${fmt(oneChainNetworks / tickEvery)} if each chain is its own network (at least ${fmt((oneChainNetworks * perPoolRead) / tickEvery)} rows read/s at ${fmt(perPoolRead, 2)} a pool)`,
    `- a failover: ${fmt(costs.failover.rowsRead)} rows read, ${fmt(costs.failover.rowsWritten)} written in the writer, then every agent of the network polls and reports once more`,
    `- probes on the data plane: ${gateways} probers × ${costs.probesPerProber} probes (as the bench's probers were asked) × ${fmt(s.probeBytesPerSecond, 0)} B/s = ${fmt((gateways * costs.probesPerProber * s.probeBytesPerSecond) / 1e6, 2)} MB/s of echoes in the tunnels (${fmt((gateways * costs.probesPerProber * s.probeWireBytesPerSecond) / 1e6, 2)} MB/s on the wire)`,
  ];
}
