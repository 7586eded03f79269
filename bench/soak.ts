// The soak: many requests that grow no data, to see whether the server's memory levels off (docs/memory.md).
// 10,000 writes that put a node's endpoint back and forth, then 50,000 reads (health and that node's
// config), 8 in flight, sampling the wrangler process group's RSS and the Worker's JS heap (after a full
// GC) before, at intervals and after. A leak shows as growth per request that does not fall off.
import { login } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { workerHeapUsage } from "./inspector.ts";
import { mib, processGroupMemory } from "./server-memory.ts";

export interface SoakTarget {
  /** A node whose endpoint the writes flip between two values; its config is what the reads render. */
  nodeId: string;
}

const WRITES = Number(process.env.SOAK_WRITES ?? 10_000);
const READS = Number(process.env.SOAK_READS ?? 50_000);
const SAMPLES_PER_PHASE = 5;
const IN_FLIGHT = 8;

interface Sample {
  point: string;
  requests: number;
  groupBytes: number;
  byProcess: Record<string, number>;
  heapBytes: number;
}

export async function runSoak(server: WorkerServer, target: SoakTarget): Promise<string[]> {
  const token = await login(server.baseUrl, server.admin);
  const headers = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
  const write = (i: number) =>
    send(`${server.baseUrl}/api/v1/nodes/${target.nodeId}`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ endpoint: `198.51.100.${1 + (i % 2)}:51820` }),
    });
  const read = (i: number) =>
    i % 2 === 0 ? send(`${server.baseUrl}/api/v1/health`, {}) : send(`${server.baseUrl}/api/v1/nodes/${target.nodeId}/config`, { headers });

  const samples: Sample[] = [await sample(server, "start", 0)];
  let failures = 0;
  let requests = 0;
  const started = Date.now();
  for (const [phase, total, one] of [
    ["writes", WRITES, write],
    ["reads", READS, read],
  ] as const) {
    const step = Math.ceil(total / SAMPLES_PER_PHASE);
    for (let done = 0; done < total; done += step) {
      const count = Math.min(step, total - done);
      failures += await inFlight(count, (i) => one(done + i));
      requests += count;
      samples.push(await sample(server, `${phase} ${done + count}`, requests));
    }
  }
  const seconds = (Date.now() - started) / 1000;
  return table(samples, { failures, seconds });
}

async function sample(server: WorkerServer, point: string, requests: number): Promise<Sample> {
  const heap = await workerHeapUsage(server.inspectorPort, { afterGc: true });
  const processes = processGroupMemory(server.pid);
  const byProcess: Record<string, number> = {};
  for (const process of processes) byProcess[process.name] = (byProcess[process.name] ?? 0) + process.rssBytes;
  const groupBytes = processes.reduce((sum, process) => sum + process.rssBytes, 0);
  return { point, requests, groupBytes, byProcess, heapBytes: heap.usedBytes };
}

/** Runs `count` requests, IN_FLIGHT at a time; answers how many were not 2xx. */
async function inFlight(count: number, request: (i: number) => Promise<number>): Promise<number> {
  let next = 0;
  let failures = 0;
  const lane = async () => {
    while (next < count) {
      const status = await request(next++);
      if (status < 200 || status > 299) failures++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return failures;
}

/** The status, body drained; wrangler dev's proxy now and then drops a keep-alive socket, so those retry. */
async function send(url: string, init: RequestInit): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      const socketClosed = (error as { cause?: { code?: string } }).cause?.code === "UND_ERR_SOCKET";
      if (!socketClosed || attempt >= 3) throw error;
    }
  }
}

const PROCESS_COLUMNS = ["workerd (worker)", "workerd (proxy)", "wrangler"];

function table(samples: Sample[], totals: { failures: number; seconds: number }): string[] {
  const perRequest = (from: Sample, to: Sample, field: (s: Sample) => number) =>
    to.requests === from.requests ? "" : ((field(to) - field(from)) / (to.requests - from.requests) / 1024).toFixed(2);
  const rows = samples.map((s, i) => {
    const previous = samples[i - 1];
    const growth = previous ? [perRequest(previous, s, (x) => x.groupBytes), perRequest(previous, s, (x) => x.heapBytes)] : ["", ""];
    const columns = PROCESS_COLUMNS.map((name) => mib(s.byProcess[name] ?? 0));
    return `| ${s.point} | ${mib(s.groupBytes)} | ${columns.join(" | ")} | ${mib(s.heapBytes)} | ${growth.join(" | ")} |`;
  });
  return [
    "",
    `Soak: ${WRITES} writes (PATCH a node's endpoint back and forth), then ${READS} reads (GET /health and GET that node's config),`,
    `${IN_FLIGHT} in flight, ${totals.seconds.toFixed(0)} s, ${totals.failures} not 2xx. RSS in MiB (VmRSS of wrangler's process group);`,
    "JS heap: the Worker's isolate after a full GC. Growth: KiB per request since the previous row.",
    "",
    `| after | group RSS | ${PROCESS_COLUMNS.join(" | ")} | JS heap | RSS growth/req | heap growth/req |`,
    `| --- | ${Array(PROCESS_COLUMNS.length + 4)
      .fill("---:")
      .join(" | ")} |`,
    ...rows,
  ];
}
