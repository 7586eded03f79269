// `BENCH_ONLY=fleet npm run bench`: the fleet simulation of issue 30. 200 networks × 50 devices (10,000 devices) and
// a gateway agent a network, under wrangler dev on local D1, every beat a real one (bench/fleet-reports.ts): first
// every member's full report, then the paced run (the rate the fleet sends: 333 heartbeats/s and the agents' reports)
// and the flat-out run. Figures: requests/s, p50/p99, D1 rows written (the writers' meters, summed), each writer's
// storage, the server's memory. Written to bench/results/fleet.md.
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { afterAll, it } from "vitest";
import { api, login } from "../test/e2e/support/api-client.ts";
import { startWorker, type WorkerServer } from "../test/e2e/support/worker-server.ts";
import { agentSchedule } from "./failover-schedule.ts";
import { DEVICE_PERIOD_MS, firstBeats, flatOut, paced, type RunFigures } from "./fleet-drive.ts";
import { type FleetMeter, fleetMeter, meterDelta, serverRss, storageSpread, workerMeter } from "./fleet-meter.ts";
import { buildFleet, FLEET } from "./fleet-world.ts";
import { mib } from "./server-memory.ts";

let server: WorkerServer | undefined;
afterAll(async () => server?.stop());

const PACED_SECONDS = Number(process.env.FLEET_PACED_SECONDS ?? 30);
const FLAT_SECONDS = Number(process.env.FLEET_FLAT_SECONDS ?? 20);
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () =>
  loadavg()
    .map((n) => fmt(n, 2))
    .join(" / ");
const kib = (bytes: number) => fmt(bytes / 1024, 1);

interface Measured {
  run: RunFigures;
  load: string;
  /** The network writers' meters, summed. */
  writers: ReturnType<typeof meterDelta>;
  /** The Worker's own binding (a gateway report's batch runs there). */
  worker: ReturnType<typeof meterDelta>;
}

const only = process.env.BENCH_ONLY;
it.skipIf(only !== undefined && only !== "fleet")(
  "fleet simulation",
  async () => {
    const schedule = await agentSchedule();
    const loadAtStart = load();
    server = await startWorker({ vars: { DEV_D1_METER: "true" } });
    const s = server;
    try {
      const admin = api(s.baseUrl, await login(s.baseUrl, s.admin));
      let started = Date.now();
      const fleet = await buildFleet(s, admin);
      const seedSeconds = (Date.now() - started) / 1000;
      console.log(`fleet bench: ${FLEET.networks} networks × ${FLEET.devices} devices built in ${fmt(seedSeconds, 0)} s`);
      const ids = fleet.map((n) => n.id);
      const devices = interleave(fleet.map((n) => n.devices));
      const gateways = fleet.map((n) => n.gateway);
      const measure = async (what: () => Promise<RunFigures>): Promise<Measured> => {
        // The writers' stats are read through the Worker: their reads stay outside the Worker meter's window.
        const writersBefore = await fleetMeter(admin, ids);
        const workerBefore = await workerMeter(s.baseUrl);
        const run = await what();
        const worker = meterDelta(
          { ...(await workerMeter(s.baseUrl)), hotRowsWritten: 0, presenceTransitions: 0 },
          { ...workerBefore, hotRowsWritten: 0, presenceTransitions: 0 },
        );
        return { run, load: load(), worker, writers: meterDelta(await fleetMeter(admin, ids), writersBefore) };
      };
      started = Date.now();
      const first = await measure(() => firstBeats(s.baseUrl, [...devices, ...gateways]));
      console.log(`fleet bench: first beats in ${fmt((Date.now() - started) / 1000, 0)} s`);
      const memoryBefore = serverRss(s.pid);
      const gatewayPeriodMs = 1000 / schedule.reportsPerSecond;
      const pacedRun = await measure(() => paced(s.baseUrl, devices, gateways, gatewayPeriodMs, PACED_SECONDS));
      const gatewayRate = gateways.length * schedule.reportsPerSecond;
      const deviceRate = (devices.length * 1000) / DEVICE_PERIOD_MS;
      const flat = await measure(() => flatOut(s.baseUrl, devices, gateways, gatewayRate / (gatewayRate + deviceRate), FLAT_SECONDS));
      const end: FleetMeter = await fleetMeter(admin, ids);
      const storage = storageSpread(end.storage);
      const lines = [
        `Fleet simulation (issue 30), ${new Date().toISOString()}: ${FLEET.networks} networks × ${FLEET.devices} devices and a gateway agent each,`,
        `against wrangler dev (local D1). Load average (1/5/15 min) at the start ${loadAtStart} (2 cores, shared with two other engineers' runs).`,
        `Built through the API in ${fmt(seedSeconds, 0)} s. Offered rate: ${fmt(deviceRate)} heartbeats/s + ${fmt(gatewayRate)} gateway reports/s`,
        `(every ${fmt(gatewayPeriodMs / 1000, 2)} s an agent, from wgo's own schedule) = ${fmt(deviceRate + gatewayRate)}/s.`,
        "",
        "| run | load after | req/s | device p50 ms | device p99 ms | gateway p50 ms | gateway p99 ms | non-2xx | resyncs | not sent | D1 rows written/s | rows written/req (writers + Worker) | rows read/req (writers + Worker) | objects' own SQLite rows written/req | presence transitions |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ...[first, pacedRun, flat].map(row),
        "",
        `Each network writer's own storage (storageBytes): min ${kib(storage.min)} KiB, median ${kib(storage.median)} KiB, max ${kib(storage.max)} KiB,`,
        `${fmt(storage.sum / 1_048_576, 1)} MiB over ${ids.length} objects. Server memory (wrangler dev process group RSS): ${mib(memoryBefore)} MiB`,
        `after the first beats, ${mib(serverRss(s.pid))} MiB at the end.`,
        "D1 rows: D1's own meta.rows_written / rows_read, as the network writers' meters (GET /networks/{id}/writer, summed over",
        "the networks) and the Worker's own binding (GET /__d1-meter, DEV_D1_METER=true) count them; a gateway report's batch runs",
        "in the Worker. Presence transitions: devices the writers' presence checks judged online or offline in the run (each writes",
        "its D1 row, the node's last-seen and its events). Not sent: beats due while the server was behind (their device's last beat unanswered, or 256 in flight).",
        ...[first, pacedRun, flat].flatMap(({ run }) => (run.non2xx > 0 ? [`Non-2xx in ${run.label}: ${failuresOf(run)}.`] : [])),
      ];
      console.log(`\n${lines.join("\n")}\n`);
      await mkdir("bench/results", { recursive: true });
      await writeFile("bench/results/fleet.md", `${lines.join("\n")}\n`);
    } catch (error) {
      console.error(`wrangler output (tail):\n${s.logs().slice(-3000)}`);
      throw error;
    }
    // An hour: on 2 cores shared with other runs, building 10,000 devices and their first reports took 30 minutes.
  },
  3_600_000,
);

function row({ run, load, writers, worker }: Measured) {
  const perRequest = (a: number, b: number) =>
    `${fmt((a + b) / Math.max(1, run.requests), 1)} (${fmt(a / Math.max(1, run.requests), 1)} + ${fmt(b / Math.max(1, run.requests), 1)})`;
  const written = writers.rowsWritten + worker.rowsWritten;
  // A writer that restarted mid-run starts its meter at zero again: the sum then went down, and says nothing.
  if (writers.rowsWritten < 0 || writers.rowsRead < 0) {
    const cells = `| ${run.label} | ${load} | ${fmt(run.perSecond)} | ${fmt(run.device.p50Ms, 1)} | ${fmt(run.device.p99Ms, 1)} | ${fmt(run.gateway.p50Ms, 1)} | ${fmt(run.gateway.p99Ms, 1)} | ${run.non2xx} | ${run.resyncs} | ${run.skipped}`;
    return `${cells} | n/a: a writer restarted | n/a (? + ${fmt(worker.rowsWritten / Math.max(1, run.requests), 1)}) | n/a | n/a | n/a |`;
  }
  return `| ${run.label} | ${load} | ${fmt(run.perSecond)} | ${fmt(run.device.p50Ms, 1)} | ${fmt(run.device.p99Ms, 1)} | ${fmt(run.gateway.p50Ms, 1)} | ${fmt(run.gateway.p99Ms, 1)} | ${run.non2xx} | ${run.resyncs} | ${run.skipped} | ${fmt(written / run.seconds, 0)} | ${perRequest(writers.rowsWritten, worker.rowsWritten)} | ${perRequest(writers.rowsRead, worker.rowsRead)} | ${fmt(writers.hotRowsWritten / Math.max(1, run.requests), 1)} | ${writers.presenceTransitions} |`;
}

/** "503 overloaded × 100, 0 × 28": each kind of failure, most frequent first (status 0: no answer). */
const failuresOf = (run: RunFigures) =>
  Object.entries(run.failures)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${kind} × ${count}`)
    .join(", ");

/** Network 0's device 0, network 1's device 0, …: consecutive beats go to different networks, as a real fleet's do. */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i]!);
  return out;
}
