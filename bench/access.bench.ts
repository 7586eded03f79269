// `BENCH_ONLY=access npm run bench`: what access policies cost (issue 26). In-process first (the compile,
// the topology with and without it, every node's delta after a one-rule change), then through the Worker
// under `wrangler dev` (bench/access-worker.ts). Figures go to bench/results/access.md.
import { mkdir, writeFile } from "node:fs/promises";
import { afterAll, it } from "vitest";
import { startWorker, type WorkerServer } from "../test/e2e/support/worker-server.ts";
import { measureCompile, measureRuleChange } from "./access-compile.ts";
import { ACCESS_SIZES, measureAccessWorker } from "./access-worker.ts";

let server: WorkerServer | undefined;
afterAll(async () => server?.stop());

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const kib = (bytes: number) => fmt(bytes / 1024);
const only = process.env.BENCH_ONLY;

it.skipIf(only !== undefined && only !== "access")("access policies", async () => {
  const c = measureCompile(10_000);
  const changes = ACCESS_SIZES.map(measureRuleChange);
  const lines = [
    `Access policies (issue 26), ${new Date().toISOString()}. In-process, the Worker's own code (CPU ms, p50 of 5 runs;`,
    "heap retained by the result, after a full GC):",
    "",
    `- compileAccess, ${c.rules} rules over ${c.nodes} nodes: ${fmt(c.compile.cpuMs)} ms, ${fmt(c.compile.heapMiB, 2)} MiB (${c.sourceClasses} source classes, ${c.targetClasses} target classes)`,
    `- the topology without access (the bare cost): ${fmt(c.bareTopology.cpuMs)} ms, ${fmt(c.bareTopology.heapMiB, 2)} MiB; with the compile: ${fmt(c.policyTopology.cpuMs)} ms, ${fmt(c.policyTopology.heapMiB, 2)} MiB`,
    `- the probe laptop's config: policy ${c.probe.policyPeers} peers, ${fmt(c.probe.policyKiB)} KiB, ${fmt(c.probe.policyMs, 2)} ms; open ${c.probe.openPeers} peers, ${fmt(c.probe.openKiB)} KiB, ${fmt(c.probe.openMs, 2)} ms`,
    "",
    "A one-rule change (one grant moved from one server to another), in-process: rebuilding the topology at the new",
    "revision, and every node's delta computed (what the writer spends once every node has asked):",
    "",
    "| nodes | rebuild ms | every node's delta ms | per node µs | rendering every config instead, ms | nodes changed | their delta bytes |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...changes.map(
      (r) =>
        `| ${r.nodes} | ${fmt(r.rebuildMs)} | ${fmt(r.allDeltasMs)} | ${fmt((1000 * r.allDeltasMs) / r.nodes)} | ${fmt(r.renderedMs)} | ${r.nodesChanged} | ${r.deltaBytes.join(", ")} |`,
    ),
  ];
  console.log(`\n${lines.join("\n")}\n`);
  server = await startWorker();
  try {
    const w = await measureAccessWorker(server);
    const last = w.rows.at(-1)!;
    lines.push(
      "",
      "Through the Worker (wrangler dev, local D1; one network grown through the API, 8 creates in flight, policy mode).",
      `PUT: p50 of ${7} one-rule PUTs (the writer's write); first read: the first device's delta read after the PUT`,
      "(the writer recompiles and rebuilds the topology then); nodes changed: the preview's count; deltas: what each",
      "device receives on its next config read (POST /client/devices/{id}/config with sinceRevision):",
      "",
      "| nodes | PUT p50 ms | first read ms | nodes changed | delta bytes (node) | probe config KiB | peers | p50 ms | server MiB |",
      "| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
      ...w.rows.map(
        (r) =>
          `| ${r.nodes} | ${fmt(r.putP50)} | ${fmt(r.firstReadMs)} | ${r.nodesChanged} | ${r.deltas.map((d) => `${d.bytes} (${d.node})`).join(", ")} | ${kib(r.probe.bytes)} | ${r.probe.peers} | ${fmt(r.probe.p50)} | ${fmt(r.memoryMiB, 0)} |`,
      ),
      "",
      `The probe laptop at ${last.nodes} nodes: policy mode ${kib(last.probe.bytes)} KiB, ${last.probe.peers} peers, p50 ${fmt(last.probe.p50)} ms;`,
      `open mode (full mesh) ${kib(w.open.bytes)} KiB, ${w.open.peers} peers, p50 ${fmt(w.open.p50)} ms.`,
    );
  } catch (error) {
    console.error(`wrangler output (tail):\n${server.logs().slice(-3000)}`);
    throw error;
  }
  console.log(`\n${lines.join("\n")}\n`);
  await mkdir("bench/results", { recursive: true });
  await writeFile("bench/results/access.md", `${lines.join("\n")}\n`);
});
