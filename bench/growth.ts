// How the cost grows with the network (issue 14): one network grown through the API to each size, and at
// each size the p50 of a node create and a config read, the config's and a delta's bytes, D1 rows read
// per operation as D1 reports them (the writer's meter, GET /networks/{id}/writer), and server memory.
// Then the heartbeat rate one network's writer sustains, at the largest size: with empty peer lists (what
// the handler costs) and as a real device of that network sends them (bench/real-heartbeats.ts).
import { execFileSync } from "node:child_process";
import type { ApiClient } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { expectCreated, inParallel } from "./seed.ts";
import { processGroupRssBytes } from "./server-memory.ts";
import { measureRealHeartbeats, REAL_HEARTBEAT_DEVICES, realHeartbeatLines } from "./real-heartbeats.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

export const GROWTH_SIZES = (process.env.BENCH_SIZES ?? "10,100,1000,5000,10000").split(",").map(Number);
const SAMPLES = 20;
const HEARTBEAT_DEVICES = 200;
/** src/lib/limits.ts nodesPerNetwork (bench/ runs outside the Worker and does not import it). */
const NODE_CAP = 10_000;

const publicKeys = (count: number) =>
  execFileSync("sh", ["-c", `for i in $(seq ${count}); do wg genkey | wg pubkey; done`])
    .toString()
    .trim()
    .split("\n");

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Row {
  nodes: number;
  createP50: number;
  createRows: number;
  readP50: number;
  readKiB: number;
  readRows: number;
  deltaBytes: number;
  deltaRows: number;
  memoryMiB: number;
}

/** Sends one request and times it to the last byte of the body. */
async function timed(server: WorkerServer, token: string, method: string, path: string, body?: unknown) {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return { ms: performance.now() - started, bytes };
}

export async function measureGrowth(server: WorkerServer, admin: ApiClient, token: string) {
  const group = await expectCreated("group", () => admin.post("/groups", { name: "growth" }));
  const network = await expectCreated("network", () =>
    admin.post("/networks", { groupId: group.id, name: "growth", cidr: "10.64.0.0/18" }),
  );
  const stats = async () => (await admin.get(`/networks/${network.id}/writer`)).body as { rowsRead: number };
  // The device whose config is read and which receives the deltas: it holds a revision, as wgo does.
  const device = await expectCreated("device", () =>
    admin.post("/client/devices", { networkId: network.id, name: "probe", publicKey: publicKeys(1)[0] }),
  );
  const deviceToken = device.deviceToken as string;
  const configPath = `/client/devices/${device.device.id}/config`;
  let count = 1;
  let serial = 0;
  const rows: Row[] = [];
  const allKeys: string[] = [];
  for (const wanted of GROWTH_SIZES) {
    // The samples below and the heartbeat fleet after the table add nodes too: near the cap, leave them room.
    const size = Math.min(wanted, NODE_CAP - SAMPLES - 1 - HEARTBEAT_DEVICES - REAL_HEARTBEAT_DEVICES);
    const keys = publicKeys(Math.max(0, size - count) + SAMPLES + 1);
    allKeys.push(...keys);
    const grow = size - count;
    await inParallel(grow, 8, (i) =>
      expectCreated("node", () => admin.post("/nodes", { networkId: network.id, name: `g${serial + i}`, publicKey: keys[i] })),
    );
    serial += grow;
    count = size;

    let before = await stats();
    const creates: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      creates.push(
        (await timed(server, token, "POST", "/nodes", { networkId: network.id, name: `g${serial++}`, publicKey: keys[grow + i] })).ms,
      );
    }
    let after = await stats();
    const createRows = (after.rowsRead - before.rowsRead) / SAMPLES;
    count += SAMPLES;

    before = await stats();
    const reads: { ms: number; bytes: number }[] = [];
    for (let i = 0; i < SAMPLES; i++) reads.push(await timed(server, token, "GET", `/nodes/${device.node.id}/config`));
    after = await stats();
    const readRows = (after.rowsRead - before.rowsRead) / SAMPLES;

    // The device holds the current revision; one node joins; the device asks for what changed.
    const held = (await (
      await fetch(`${server.baseUrl}/api/v1${configPath}`, { method: "POST", headers: { Authorization: `Bearer ${deviceToken}` } })
    ).json()) as {
      config: { routingRevision: number };
    };
    await timed(server, token, "POST", "/nodes", { networkId: network.id, name: `g${serial++}`, publicKey: keys[grow + SAMPLES] });
    count += 1;
    before = await stats();
    const delta = await timed(server, deviceToken, "POST", configPath, { sinceRevision: held.config.routingRevision });
    after = await stats();
    rows.push({
      nodes: size,
      createP50: p50(creates),
      createRows,
      readP50: p50(reads.map((r) => r.ms)),
      readKiB: reads[0]!.bytes / 1024,
      readRows,
      deltaBytes: delta.bytes,
      deltaRows: after.rowsRead - before.rowsRead,
      memoryMiB: processGroupRssBytes(server.pid) / 2 ** 20,
    });
    console.log(`growth: ${size} nodes measured`);
  }
  const heartbeats = await heartbeatRate(server, admin, network.id);
  const real = await measureRealHeartbeats(server, admin, network.id, allKeys, publicKeys(REAL_HEARTBEAT_DEVICES));
  return { rows, heartbeats, real };
}

/** Heartbeats from many devices of the one grown network, driven by wrk: the rate one network's writer sustains. */
async function heartbeatRate(server: WorkerServer, admin: ApiClient, networkId: string): Promise<WrkResult> {
  const keys = publicKeys(HEARTBEAT_DEVICES);
  const fleet = await inParallel(HEARTBEAT_DEVICES, 4, async (i) => {
    const enrolled = await expectCreated("fleet device", () =>
      admin.post("/client/devices", { networkId, name: `hb${i}`, publicKey: keys[i] }),
    );
    return { path: `/api/v1/client/devices/${enrolled.device.id}/heartbeat`, token: enrolled.deviceToken as string };
  });
  const scratch = execFileSync("mktemp", ["-d"]).toString().trim();
  return runWrk(
    server.baseUrl,
    {
      label: `POST heartbeat, ${HEARTBEAT_DEVICES} devices in turn, one network of ${GROWTH_SIZES.at(-1)} nodes`,
      method: "POST",
      path: "/api/v1/health",
      rotate: fleet,
      body: JSON.stringify({ appliedRevision: null, peers: [] }),
    },
    scratch,
  );
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

export function growthLines({ rows, heartbeats, real }: Awaited<ReturnType<typeof measureGrowth>>): string[] {
  return [
    "Growth: one network grown through the API (POST /nodes, 8 in flight), a full mesh; at each size the p50 of",
    `${SAMPLES} node creates and ${SAMPLES} config reads, D1 rows read per operation by the network's writer (D1's`,
    "meta.rows_read; the Worker's access check adds one indexed lookup), the bytes of a config and of the delta a",
    "device receives after one node joins, and the server's memory (RSS of the wrangler dev process group):",
    "",
    "| nodes | create p50 ms | rows/create | config p50 ms | config KiB | rows/config | delta bytes | rows/delta | server MiB |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.nodes} | ${fmt(r.createP50, 2)} | ${fmt(r.createRows)} | ${fmt(r.readP50, 2)} | ${fmt(r.readKiB)} | ${fmt(r.readRows)} | ${r.deltaBytes} | ${r.deltaRows} | ${fmt(r.memoryMiB, 0)} |`,
    ),
    "",
    `Heartbeats with empty peer lists, what the handler alone costs (${heartbeats.label}): ${fmt(heartbeats.requestsPerSecond)}/s,`,
    `p50 ${fmt(heartbeats.p50Ms, 2)} ms, p99 ${fmt(heartbeats.p99Ms, 2)} ms, ${heartbeats.non2xx} non-2xx.`,
    "",
    ...realHeartbeatLines(real),
  ];
}
