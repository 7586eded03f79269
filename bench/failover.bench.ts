// `BENCH_ONLY=failover npm run bench`: the cost of issue 27's faster failover cadence. The agent's schedule
// (wgo's own constants), what one prober's report costs through the Worker (wrk, against the bare handler in
// the same run, and the writer's meter), the writer's evaluation and one failover on a network at the pool
// limit, and what that makes at 1,000 gateways. Figures go to bench/results/failover.md.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { api, login } from "../test/e2e/support/api-client.ts";
import { startWorker, type WorkerServer } from "../test/e2e/support/worker-server.ts";
import { profileDuring, profileLines } from "./cpu-profile.ts";
import { buildFailoverNetwork, CHAINS } from "./failover-network.ts";
import { firstReports, wrkReports } from "./failover-reports.ts";
import { agentSchedule, atScale } from "./failover-schedule.ts";
import { idleTicks, meterOf, minus, oneFailover, reportTimings } from "./failover-writer.ts";
import { runWrk, WRK } from "./wrk.ts";

let server: WorkerServer | undefined;
afterAll(async () => server?.stop());

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () =>
  loadavg()
    .map((n) => fmt(n, 2))
    .join(" / ");
const only = process.env.BENCH_ONLY;
const IDLE_SECONDS = 20;

it.skipIf(only !== undefined && only !== "failover")("failover cadence", async () => {
  const s = await agentSchedule();
  const loadAtStart = load();
  server = await startWorker();
  try {
    const admin = api(server.baseUrl, await login(server.baseUrl, server.admin));
    const started = Date.now();
    const net = await buildFailoverNetwork(server, admin);
    console.log(`failover bench: ${CHAINS} chains built in ${Math.round((Date.now() - started) / 1000)} s`);
    const scratch = await mkdtemp(join(tmpdir(), "bench-failover-"));
    const idle = await idleTicks(admin, net.networkId, IDLE_SECONDS);
    const bare = await runWrk(
      server.baseUrl,
      { label: "baseline: bare handler (GET /health)", method: "GET", path: "/api/v1/health" },
      scratch,
    );
    const { steady, shape } = await firstReports(server, net.probers);
    const before = await meterOf(admin, net.networkId);
    const running = server;
    const { result: reports, ...profile } = await profileDuring(running, () => wrkReports(running, steady, scratch));
    const during = minus(await meterOf(admin, net.networkId), before);
    // The alarm kept ticking under wrk: its share (the idle rate over the run) is not the reports'.
    const perReport = {
      statements: (during.statements - idle.perSecond.statements * WRK.seconds) / reports.requests,
      read: (during.rowsRead - idle.perSecond.rowsRead * WRK.seconds) / reports.requests,
      written: (during.rowsWritten - idle.perSecond.rowsWritten * WRK.seconds) / reports.requests,
    };
    const timings = await reportTimings(server, admin, net.networkId, net.probers[1]!, 21);
    const failover = await oneFailover(server, admin, net);
    expect(failover.activeAfter, "the probe report failed chain 0's pool over to its standby").toBe(failover.expected);
    const loadAtEnd = load();
    const lines = [
      `Failover cadence (issue 27), ${new Date().toISOString()}; wrk -t${WRK.threads} -c${WRK.connections} -d${WRK.seconds}s against wrangler dev (local D1).`,
      `Load average (1/5/15 min) at the start ${loadAtStart}, at the end ${loadAtEnd} (2 cores, shared with two other engineers' runs).`,
      "",
      "**Per gateway, from the agent's schedule** (cli/gateway: REPORT_EVERY_MS, LONG_POLL_SECONDS, TURN_REPORT_GAP_MS, DEFAULT_PROBE_RULES):",
      `- steady state: a report every ${s.reportEveryMs / 1000} s plus one after each poll answer, a long poll of ${s.longPollSeconds} s:`,
      `  ${fmt(s.reportsPerSecond, 3)} reports/s + ${fmt(s.pollsPerSecond, 3)} polls/s = ${fmt(s.requestsPerSecond, 3)} requests/s`,
      `- around a failover: the prober sends a report at once when its probe turns (${s.downAfter} lost echoes at ${s.probeIntervalMs} ms, at most one turn report`,
      `  every ${s.turnGapMs} ms; two a fault: down, later up); the revision bump answers every agent of the network's long poll, and`,
      "  each fetches its desired state, polls again and reports once (+1 poll, +1 report a gateway; the schedule then goes on).",
      "- not cross-checked with a running `wgo gateway run`: without a WireGuard interface it holds no node, and an agent with",
      "  no node sends no report; the bench stays out of namespaces. The e2e pool suite runs real agents.",
      "",
      `**One report as a prober's agent sends it** (${CHAINS} agents in turn; each: its node's ${shape.probesPerReport} probes from the desired state, up, and a`,
      `delta peer report by cli/peer-report.mjs over its ${shape.peersPerReport} tunnels, ${shape.tunnelsInUse} in use and moving traffic; ${shape.bodyBytes} bytes):`,
      "",
      "| endpoint | req/s | p50 ms | p99 ms | vs bare handler | non-2xx | resyncs |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...[bare, reports].map(
        (r) =>
          `| ${r.label} | ${fmt(r.requestsPerSecond)} | ${fmt(r.p50Ms, 2)} | ${fmt(r.p99Ms, 2)} | ${fmt((100 * r.requestsPerSecond) / bare.requestsPerSecond, 0)}% | ${r.non2xx} | ${r.resyncs ?? "-"} |`,
      ),
      "",
      "CPU profile of that run (the Worker and the network's object share the isolate):",
      ...profileLines({ result: reports, ...profile }),
      `- the writer's meter per report: ${fmt(perReport.statements, 2)} statements, ${fmt(perReport.read, 2)} rows read, ${fmt(perReport.written, 2)} written`,
      "  (its readProbes RPC; the alarm's share over the run subtracted). The report's own batch runs in the Worker, outside",
      "  the meter: per node a select of the node with its network, a select of the probed members with their streaks, one",
      "  update of the node, its peer-report rows, and one upsert of forwarding_probes per probe (so a steady report writes",
      `  at least ${1 + shape.probesPerReport} rows besides its peers).`,
      `- one report in a quiet server, p50 of ${timings.rounds}: ${fmt(timings.steadyMs, 1)} ms with its probes steady, ${fmt(timings.turningMs, 1)} ms when a probe turns`,
      "  (the report then waits for the writer's evaluation of every pool);",
      `  those ${timings.rounds} turning reports (the probes across an active member with no agent, and to its standby) moved the routing revision ${timings.bumps} times.`,
      "",
      `**Writer load** (${CHAINS} pools of 2 members on ${CHAINS} chains, the pool limit):`,
      `- the alarm's tick, alone for ${IDLE_SECONDS} s (${idle.ticks} ticks): ${fmt(idle.perTick.statements, 1)} statements, ${fmt(idle.perTick.rowsRead, 1)} rows read,`,
      `  ${fmt(idle.perTick.rowsWritten, 1)} written a tick. The member read is a join, which the meter counts as a statement without its`,
      "  rows (src/db/metered-d1.ts), so the rows read are a lower bound: at least one node row per member (200).",
      `- an evaluation a turning probe triggers, in the writer's meter: ${fmt(timings.meter.statements, 1)} statements, ${fmt(timings.meter.rowsRead, 1)} rows read a report`,
      `  (with the alarm's ticks over those ${fmt(timings.elapsedMs / 1000, 1)} s); its time is the difference above: ${fmt(timings.turningMs - timings.steadyMs, 1)} ms.`,
      `- one failover (chain 0's probe across its active member down, its standby reporting): the report took ${fmt(failover.reportMs, 1)} ms;`,
      `  writer ${fmt(failover.meter.statements, 0)} statements, ${fmt(failover.meter.rowsRead, 0)} rows read, ${fmt(failover.meter.rowsWritten, 0)} written; routing revision +${failover.revisionBump}.`,
      `  Then each of the ${failover.deltas.agents} agents fetches its desired state on the revision before the failover: ${failover.deltas.full} whole configs,`,
      `  ${failover.deltas.changed} deltas with peers changed (${failover.deltas.upserted} peers upserted, ${failover.deltas.removed} removed in all),`,
      `  ${failover.deltas.intents} carrying the node's whole routingIntent list;`,
      `  ${fmt(failover.deltas.bytes / 1024, 1)} KiB in all, the largest answer ${failover.deltas.largest} bytes.`,
      "",
      "**At 1,000 gateways** (derived from the figures above; each gateway a prober beside a pool, the upper bound):",
      ...atScale(
        s,
        {
          writerRowsPerReport: { read: perReport.read, written: perReport.written },
          tick: { pools: CHAINS, rowsRead: idle.perTick.rowsRead, statements: idle.perTick.statements },
          failover: { rowsRead: failover.meter.rowsRead, rowsWritten: failover.meter.rowsWritten },
          probesPerProber: shape.probesPerReport,
        },
        1_000,
      ),
      `- the API's capacity for reports here, one wrangler dev process: ${fmt(reports.requestsPerSecond)}/s, ${fmt(reports.requestsPerSecond / s.reportsPerSecond, 0)} gateways' worth.`,
    ];
    console.log(`\n${lines.join("\n")}\n`);
    await mkdir("bench/results", { recursive: true });
    await writeFile("bench/results/failover.md", `${lines.join("\n")}\n`);
  } catch (error) {
    console.error(`wrangler output (tail):\n${server.logs().slice(-3000)}`);
    throw error;
  }
});
