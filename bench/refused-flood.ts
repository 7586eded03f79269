// `BENCH_ONLY=writes npm run bench`, last rows: a victim network's own writes alone and under a flood of refused
// writes of every kind the writer authorises itself (security round 4, issue 40 item 3). Strangers (signed in,
// not members) send node, DNS, routing-policy and access-policy writes at the victim's network and resources from
// Node while wrk measures the victim's DNS record creates. The queue rule refuses each stranger on arrival,
// before a turn in the victim's queue; the ratio of the victim's throughput under the flood to alone is the
// figure. The bench's server lifts THROTTLE_REFUSED_WRITES (per user, 60 a minute by default), which would turn the
// flood into 429s answered before any object: this row measures the queue rule on its own.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, login } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { expectCreated } from "./seed.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

const STRANGERS = 8;
const FLOOD_LOOPS = 16;
const key = () => randomBytes(32).toString("base64");

export interface FloodResult {
  alone: WrkResult;
  flooded: WrkResult;
  floodRequests: number;
  floodSeconds: number;
  floodStatuses: Record<number, number>;
  refusedBeforeTurn: number;
  victimTurns: number;
}

/** The victim: a network with a gateway node, a node, a record and a policy for the strangers to aim at. */
async function victim(admin: ReturnType<typeof api>) {
  const group = await expectCreated("group", () => admin.post("/groups", { name: "flood-victim" }));
  const network = await expectCreated("network", () => admin.post("/networks", { groupId: group.id, name: "v", cidr: "10.120.0.0/16" }));
  const region = await expectCreated("region", () => admin.post("/regions", { name: "r-flood" }));
  const gateway = await expectCreated("gateway", () => admin.post("/gateways", { regionId: region.id, name: "g-flood" }));
  const hop = await expectCreated("gateway node", () =>
    admin.post("/nodes", { networkId: network.id, name: "gw", publicKey: key(), roles: ["gateway"], gatewayId: gateway.id }),
  );
  const node = await expectCreated("node", () => admin.post("/nodes", { networkId: network.id, name: "n", publicKey: key() }));
  const record = await expectCreated("record", () =>
    admin.post(`/networks/${network.id}/dns/records`, { name: "r", type: "A", value: "192.0.2.9" }),
  );
  const policy = await expectCreated("policy", () =>
    admin.post(`/networks/${network.id}/routing-policies`, {
      name: "p",
      type: "via_gateway",
      destinationCidr: "172.21.0.0/24",
      gatewayPath: [hop.id],
    }),
  );
  return {
    networkId: network.id as string,
    hop: hop.id as string,
    node: node.id as string,
    record: record.id as string,
    policy: policy.id as string,
  };
}

type Victim = Awaited<ReturnType<typeof victim>>;

/** The ten write kinds, in turn: [method, path, body]. */
function floodWrite(v: Victim, i: number): [string, string, unknown] {
  const via = { type: "via_gateway", destinationCidr: "172.22.0.0/24", gatewayPath: [v.hop] };
  const kinds: [string, string, unknown][] = [
    ["POST", "/nodes", { networkId: v.networkId, name: `f${i}`, publicKey: key() }],
    ["PATCH", `/nodes/${v.node}`, { name: `f${i}` }],
    ["DELETE", `/nodes/${v.node}`, undefined],
    ["POST", `/networks/${v.networkId}/dns/records`, { name: `f${i}`, type: "A", value: "192.0.2.1" }],
    ["PUT", `/dns/records/${v.record}`, { name: `f${i}`, type: "A", value: "192.0.2.1" }],
    ["DELETE", `/dns/records/${v.record}`, undefined],
    ["POST", `/networks/${v.networkId}/routing-policies`, { name: `f${i}`, ...via }],
    ["PUT", `/routing-policies/${v.policy}`, { name: `f${i}`, ...via }],
    ["DELETE", `/routing-policies/${v.policy}`, undefined],
    ["PUT", `/networks/${v.networkId}/access-policy`, { rules: [], tests: [] }],
  ];
  return kinds[i % kinds.length]!;
}

/** Strangers' writes in FLOOD_LOOPS concurrent loops until `stop` resolves; the answers' statuses counted. */
async function flood(baseUrl: string, v: Victim, tokens: string[], stop: Promise<unknown>) {
  const statuses: Record<number, number> = {};
  let stopped = false;
  void stop.then(() => (stopped = true));
  let sent = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: FLOOD_LOOPS }, async (_, loop) => {
      while (!stopped) {
        const i = sent++;
        const [method, path, body] = floodWrite(v, i);
        const answer = await fetch(`${baseUrl}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${tokens[(loop + i) % tokens.length]}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        await answer.arrayBuffer();
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      }
    }),
  );
  return { statuses, requests: sent, seconds: (Date.now() - started) / 1000 };
}

export async function measureRefusedFlood(server: WorkerServer): Promise<FloodResult> {
  const scratch = await mkdtemp(join(tmpdir(), "bench-flood-"));
  const token = await login(server.baseUrl, server.admin);
  const admin = api(server.baseUrl, token);
  const v = await victim(admin);
  const tokens: string[] = [];
  for (let i = 0; i < STRANGERS; i++) {
    const credentials = { email: `flood-${i}-${Date.now()}@example.com`, password: "a long enough password" };
    await expectCreated("stranger", () => admin.post("/users", { ...credentials, name: `Stranger ${i}` }));
    tokens.push(await login(server.baseUrl, credentials));
  }
  // Each run its own names: the flooded run reusing the alone run's would answer 409 and count as refused.
  const target = (prefix: string) => ({
    token,
    connections: 1,
    method: "POST" as const,
    path: `/api/v1/networks/${v.networkId}/dns/records`,
    luaBody: `string.format('{"name":"${prefix}%d-%d","type":"A","value":"192.0.2.2"}', t, n)`,
  });
  const alone = await runWrk(server.baseUrl, { label: "victim DNS record POST, alone", ...target("alone") }, scratch);
  const stats = async () => (await admin.get(`/networks/${v.networkId}/writer`)).body as { refusedBeforeTurn: number; queueTurns: number };
  const before = await stats();
  let done!: () => void;
  const stop = new Promise<void>((resolve) => (done = resolve));
  const flooding = flood(server.baseUrl, v, tokens, stop);
  const flooded = await runWrk(server.baseUrl, { label: "victim DNS record POST, under the flood", ...target("flooded") }, scratch);
  done();
  const floodRun = await flooding;
  const after = await stats();
  await rm(scratch, { recursive: true, force: true });
  return {
    alone,
    flooded,
    floodRequests: floodRun.requests,
    floodSeconds: floodRun.seconds,
    floodStatuses: floodRun.statuses,
    refusedBeforeTurn: after.refusedBeforeTurn - before.refusedBeforeTurn,
    victimTurns: after.queueTurns - before.queueTurns,
  };
}

/** The flood's rows for bench/results/writes.md. */
export function floodLines(r: FloodResult): string[] {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  const row = (w: WrkResult) => `| ${w.label} | ${fmt(w.requestsPerSecond)} | ${fmt(w.p50Ms, 2)} | ${fmt(w.p99Ms, 2)} | ${w.non2xx} |`;
  return [
    "",
    `A victim's writes under a flood of refused writes: ${FLOOD_LOOPS} concurrent loops of ${STRANGERS} strangers sending all 10 write kinds`,
    `(${fmt(r.floodRequests / r.floodSeconds)} refused writes/s, statuses ${JSON.stringify(r.floodStatuses)}; refused before a turn in the`,
    `victim's queue: ${r.refusedBeforeTurn}; the victim's queue turns meanwhile: ${r.victimTurns}), THROTTLE_REFUSED_WRITES lifted`,
    "",
    "| write | 2xx/s | p50 ms | p99 ms | non-2xx |",
    "| --- | ---: | ---: | ---: | ---: |",
    row(r.alone),
    row(r.flooded),
    "",
    `Under the flood the victim keeps ${fmt((100 * r.flooded.requestsPerSecond) / Math.max(1e-9, r.alone.requestsPerSecond), 0)}% of its throughput alone (the flood shares the machine's 2 cores with it).`,
  ];
}
