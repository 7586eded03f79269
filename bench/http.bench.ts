// `npm run bench`: the Worker under `wrangler dev` on local D1, driven by wrk at fixed concurrency,
// with two baselines measured in the same run (a bare handler; one single-row D1 read), so the
// figures read as ratios rather than machine times. Then the render cost as a network grows.
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, it } from "vitest";
import { startWorker, type WorkerServer } from "../test/e2e/support/worker-server.ts";
import { growthLines, measureGrowth } from "./growth.ts";
import { heartbeatOnly } from "./heartbeat-only.ts";
import { measureRenderScaling } from "./render-scaling.ts";
import { FLEET_SIZE, seed, seedNetwork } from "./seed.ts";
import { runSoak } from "./soak.ts";
import { runWrk, WRK, type WrkResult, type WrkTarget } from "./wrk.ts";
import { floodLines, measureRefusedFlood } from "./refused-flood.ts";
import { measureWrites, writeLines } from "./writes.ts";

let server: WorkerServer | undefined;
afterAll(async () => server?.stop());

const fmt = (n: number, digits = 1) => n.toFixed(digits);

// BENCH_ONLY names one bench: this file serves "heartbeat", "writes" and the whole run (bench/access.bench.ts: "access").
const only = process.env.BENCH_ONLY;
it.skipIf(only !== undefined && only !== "heartbeat" && only !== "writes")("benchmark", async () => {
  // Login is measured for its cost (scrypt), not its throttle: one account signs in thousands of times here.
  // The writes bench's flood of refused writes measures the queue rule, not the refusal limit (bench/refused-flood.ts).
  server = await startWorker({
    vars: { THROTTLE_LOGIN_ACCOUNT: "10000/1", THROTTLE_LOGIN_ADDRESS: "10000/1", THROTTLE_REFUSED_WRITES: "999999/60" },
  });
  try {
    if (process.env.BENCH_ONLY === "heartbeat") {
      const lines = await heartbeatOnly(server);
      console.log(`\n${lines.join("\n")}\n`);
      await mkdir("bench/results", { recursive: true });
      await writeFile("bench/results/heartbeat.md", `${lines.join("\n")}\n`);
      return;
    }
    if (only === "writes") {
      const lines = [...writeLines(await measureWrites(server)), ...floodLines(await measureRefusedFlood(server))];
      console.log(`\n${lines.join("\n")}\n`);
      await mkdir("bench/results", { recursive: true });
      await writeFile("bench/results/writes.md", `${lines.join("\n")}\n`);
      return;
    }
    await benchmark(server);
  } catch (error) {
    console.error(`wrangler output (tail):\n${server.logs().slice(-3000)}`);
    throw error;
  }
});

async function benchmark(server: WorkerServer) {
  const scratch = await mkdtemp(join(tmpdir(), "bench-"));
  const s = await seed(server);
  // Seed everything before any load: connections idle through a wrk run go stale.
  const grown = [];
  for (const [index, nodes] of [100, 1_000].entries()) {
    grown.push({ nodes, ...(await seedNetwork(s.admin, `10.${210 + index}.0.0/16`, { nodes, policies: nodes / 10, records: 0 })) });
  }
  const targets: WrkTarget[] = [
    { label: "baseline: bare handler (GET /health)", method: "GET", path: "/api/v1/health" },
    { label: "baseline: one D1 row (GET /health/ready)", method: "GET", path: "/api/v1/health/ready" },
    { label: "POST /auth/login", method: "POST", path: "/api/v1/auth/login", body: JSON.stringify(server.admin) },
    { label: "GET /networks", method: "GET", path: "/api/v1/networks", token: s.token },
    {
      label: `GET /nodes/:id/config (${202 + FLEET_SIZE} nodes, 20 policies)`,
      method: "GET",
      path: `/api/v1/nodes/${s.sourceNodeId}/config`,
      token: s.token,
    },
    {
      // One second: the network holds at most 500 policies, and five seconds at today's rate went past the cap.
      label: "POST routing policy (1 s)",
      seconds: 1,
      method: "POST",
      path: `/api/v1/networks/${s.networkId}/routing-policies`,
      token: s.token,
      luaBody: `string.format('{"name":"w%d-%d","type":"via_gateway","destinationCidr":"172.%d.%d.%d/32","gatewayPath":["${s.gatewayNodeId}"]}', t, n, 20 + t, math.floor(n / 256) % 256, n % 256)`,
    },
    // Before the DNS writes below add records to the same zone.
    {
      label: "GET zonefile (300 records + node names)",
      method: "GET",
      path: `/api/v1/networks/${s.networkId}/dns/zonefile`,
      token: s.token,
    },
    {
      label: "POST DNS record",
      method: "POST",
      path: `/api/v1/networks/${s.networkId}/dns/records`,
      token: s.token,
      luaBody: `string.format('{"name":"w%d-%d","type":"A","value":"192.0.2.1"}', t, n)`,
    },
    { label: "GET corefile", method: "GET", path: `/api/v1/networks/${s.networkId}/dns/corefile`, token: s.token },
    {
      label: "POST heartbeat",
      method: "POST",
      path: `/api/v1/client/devices/${s.device.id}/heartbeat`,
      token: s.device.token,
      body: JSON.stringify({ appliedRevision: s.device.revision, peers: [] }),
    },
    {
      label: `POST heartbeat, ${FLEET_SIZE} devices in turn (one network)`,
      method: "POST",
      path: "/api/v1/health",
      rotate: s.fleet.map((device) => ({ path: `/api/v1/client/devices/${device.id}/heartbeat`, token: device.token })),
      body: JSON.stringify({ appliedRevision: null, peers: [] }),
    },
  ];
  const results: WrkResult[] = [];
  for (const target of targets) results.push(await runWrk(server.baseUrl, target, scratch));

  const scaling: WrkResult[] = [];
  for (const { nodes, ...net } of grown) {
    scaling.push(
      await runWrk(
        server.baseUrl,
        {
          label: `GET config, ${nodes} nodes / ${nodes / 10} policies`,
          method: "GET",
          path: `/api/v1/nodes/${net.sourceNodeId}/config`,
          token: s.token,
        },
        scratch,
      ),
    );
  }
  const d1 = results[1]!.requestsPerSecond;
  const lines = [
    `wrk -t${WRK.threads} -c${WRK.connections} -d${WRK.seconds}s against wrangler dev (local D1), ${new Date().toISOString()}`,
    "(login throttles raised for the run; reads by one session, so after the first the session check is cached)",
    "",
    "| endpoint | req/s | p50 ms | p99 ms | vs one-D1-read baseline | non-2xx |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...[...results, ...scaling].map(
      (r) =>
        `| ${r.label} | ${fmt(r.requestsPerSecond)} | ${fmt(r.p50Ms, 2)} | ${fmt(r.p99Ms, 2)} | ${fmt((100 * r.requestsPerSecond) / d1, 0)}% | ${r.non2xx} |`,
    ),
    "",
    "Render cost in-process (CPU per call, the Worker's own code):",
    "",
    "| renderer | size | CPU ms | output KiB |",
    "| --- | --- | ---: | ---: |",
    ...measureRenderScaling().map((r) => `| ${r.what} | ${r.size} | ${fmt(r.cpuMs, 2)} | ${r.outputKiB} |`),
    "",
    // Last: it grows one network to the cap, which the figures above should not carry.
    ...growthLines(await measureGrowth(server, s.admin, s.token)),
  ];
  // Last: its 60,000 requests must not change what the figures above measured.
  lines.push(...(await runSoak(server, { nodeId: s.sourceNodeId })));
  console.log(`\n${lines.join("\n")}\n`);
  await mkdir("bench/results", { recursive: true });
  await writeFile("bench/results/latest.md", `${lines.join("\n")}\n`);
  await rm(scratch, { recursive: true, force: true });
}
