// Access policies through the real Worker (issue 26), under `wrangler dev` on local D1: one network grown
// through the API to 1,000, 5,000 and 10,000 tagged nodes in policy mode with the 500-rule bench policy
// (bench/access-policy.ts). At each size: the PUT of a one-rule change (the writer's time), the first read
// after it (recompiling), how many nodes it changes (the preview's count), the delta each affected node
// receives, and the probe laptop's config. At the largest size, the same laptop's config in open mode.
import { randomBytes } from "node:crypto";
import { api, login } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { benchPolicy, type PlacedNode, roleOf, SPECIAL, tagsOf } from "./access-policy.ts";
import { expectCreated, inParallel } from "./seed.ts";
import { processGroupRssBytes } from "./server-memory.ts";

export const ACCESS_SIZES = (process.env.BENCH_SIZES ?? "1000,5000,10000").split(",").map(Number);
const PUT_SAMPLES = 6;
const READ_SAMPLES = 10;

const key = () => randomBytes(32).toString("base64");
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One request timed to the last byte of its body; a non-2xx throws. */
async function timed(server: WorkerServer, token: string, method: string, path: string, body?: unknown) {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  return { ms: performance.now() - started, bytes: Buffer.byteLength(text), body: JSON.parse(text) };
}

interface Device {
  index: number;
  nodeId: string;
  deviceId: string;
  token: string;
}

export interface AccessSizeRow {
  nodes: number;
  putP50: number;
  firstReadMs: number;
  nodesChanged: number;
  deltas: { node: string; bytes: number }[];
  probe: { bytes: number; peers: number; p50: number };
  memoryMiB: number;
}

export interface AccessWorkerFigures {
  rows: AccessSizeRow[];
  open: { bytes: number; peers: number; p50: number };
}

export async function measureAccessWorker(server: WorkerServer): Promise<AccessWorkerFigures> {
  const token = await login(server.baseUrl, server.admin);
  const admin = api(server.baseUrl, token);
  const group = await expectCreated("group", () => admin.post("/groups", { name: "access-bench" }));
  const network = await expectCreated("network", () =>
    admin.post("/networks", { groupId: group.id, name: "access", cidr: "10.64.0.0/18" }),
  );
  const placed: PlacedNode[] = [];
  const devices = new Map<number, Device>();
  // The probe and the change's three nodes are devices, so they hold revisions and receive deltas as wgo does.
  for (const index of Object.values(SPECIAL)) {
    const enrolled = await expectCreated("device", () =>
      admin.post("/client/devices", { networkId: network.id, name: `d${index}`, publicKey: key() }),
    );
    const patched = await admin.patch(`/nodes/${enrolled.node.id}`, { tags: tagsOf(index) });
    if (patched.status !== 200) throw new Error(`tagging device ${index}: ${patched.status} ${patched.text}`);
    devices.set(index, { index, nodeId: enrolled.node.id, deviceId: enrolled.device.id, token: enrolled.deviceToken });
    placed.push({ index, id: enrolled.node.id, address: enrolled.node.address });
  }
  let created = 0;
  const rows: AccessSizeRow[] = [];
  const started = Date.now();
  for (const size of ACCESS_SIZES) {
    const from = created;
    const indexes = Array.from({ length: size - from }, (_, k) => from + k).filter((i) => !devices.has(i));
    const nodes = await inParallel(indexes.length, 8, (k) =>
      expectCreated("node", () =>
        admin.post("/nodes", { networkId: network.id, name: `n${indexes[k]}`, publicKey: key(), tags: tagsOf(indexes[k]!) }),
      ),
    );
    // A null: a retried create whose first attempt landed (seed.ts); the policy is written over the others.
    nodes.forEach((node, k) => {
      if (node) placed.push({ index: indexes[k]!, id: node.id, address: node.address });
    });
    created = size;
    console.log(`access bench: ${size} nodes after ${Math.round((Date.now() - started) / 1000)} s`);
    rows.push(await measureSize(server, token, network.id, placed, devices, size, rows.length === 0));
  }
  const probe = devices.get(SPECIAL.probe)!;
  const opened = await admin.patch(`/networks/${network.id}`, { accessMode: "open" });
  if (opened.status !== 200) throw new Error(`open mode: ${opened.status} ${opened.text}`);
  return { rows, open: await readConfig(server, token, probe.nodeId) };
}

async function measureSize(
  server: WorkerServer,
  token: string,
  networkId: string,
  placed: PlacedNode[],
  devices: Map<number, Device>,
  size: number,
  first: boolean,
): Promise<AccessSizeRow> {
  const before = { rules: benchPolicy(placed, "before"), tests: [] };
  const after = { rules: benchPolicy(placed, "after"), tests: [] };
  const path = `/networks/${networkId}/access-policy`;
  await timed(server, token, "PUT", path, before);
  if (first) await timed(server, token, "PATCH", `/networks/${networkId}`, { accessMode: "policy" });
  // The writer's time for a one-rule PUT, alternating the two documents (each a new revision); "before" ends in force.
  const puts: number[] = [];
  for (let i = 0; i < PUT_SAMPLES; i++) puts.push((await timed(server, token, "PUT", path, i % 2 === 0 ? after : before)).ms);
  const preview = await timed(server, token, "POST", `${path}/preview`, after);
  // Every device holds the revision in force, as wgo does after its last config.
  const held = new Map<number, number>();
  for (const device of devices.values()) {
    const answer = await timed(server, device.token, "POST", `/client/devices/${device.deviceId}/config`, {});
    held.set(device.index, answer.body.config.routingRevision);
  }
  puts.push((await timed(server, token, "PUT", path, after)).ms);
  const deltas: AccessSizeRow["deltas"] = [];
  let firstReadMs = 0;
  for (const device of devices.values()) {
    const answer = await timed(server, device.token, "POST", `/client/devices/${device.deviceId}/config`, {
      sinceRevision: held.get(device.index),
    });
    if (!answer.body.delta) throw new Error(`device ${device.index} received its whole config, not a delta`);
    if (deltas.length === 0) firstReadMs = answer.ms;
    deltas.push({ node: nameOf(device.index), bytes: answer.bytes });
  }
  const probe = await readConfig(server, token, devices.get(SPECIAL.probe)!.nodeId);
  return {
    nodes: size,
    putP50: p50(puts),
    firstReadMs,
    nodesChanged: preview.body.nodesChanged,
    deltas,
    probe,
    memoryMiB: processGroupRssBytes(server.pid) / 2 ** 20,
  };
}

function nameOf(index: number): string {
  const which = Object.entries(SPECIAL).find(([, i]) => i === index)![0];
  return `${which} (${roleOf(index)})`;
}

/** The node's whole config, read READ_SAMPLES times by its group's admin: bytes, peers, p50. */
async function readConfig(server: WorkerServer, token: string, nodeId: string) {
  const reads = [];
  for (let i = 0; i < READ_SAMPLES; i++) reads.push(await timed(server, token, "GET", `/nodes/${nodeId}/config`));
  return { bytes: reads[0]!.bytes, peers: reads[0]!.body.peers.length as number, p50: p50(reads.map((r) => r.ms)) };
}
