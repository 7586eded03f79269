// `BENCH_ONLY=writes npm run bench`: one network's writes under concurrency (issue 30, item 5). wrk keeps
// `writers` connections each with one request in flight for a few seconds, per kind of write, at 1 and 50
// writers, beside the two baselines (bare handler, one D1 row) at the same concurrency. Each write row runs on
// a network of its own (the policy cap is 500 a network), read back afterwards: the writer's D1 meter per write.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, login } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { expectCreated, inParallel } from "./seed.ts";
import { profileDuring, profileLines } from "./cpu-profile.ts";
import { runWrk, WRK, type WrkResult, type WrkTarget } from "./wrk.ts";

export const WRITERS = (process.env.BENCH_WRITERS ?? "1,50").split(",").map(Number);

export interface WriteResult extends WrkResult {
  writers: number;
  /** The network writer's D1 statements per write in the run (its meter), for write rows. */
  statementsPerWrite?: number;
  /** Writes per combined D1 batch in the run (the writer's stats; absent before writes were combined). */
  writesPerBatch?: number;
  /** Where the isolate's CPU went in the run, for the one row profiled (bench/cpu-profile.ts). */
  profile?: string[];
}

const key = () => randomBytes(32).toString("base64");

/** A network for one row of the table (the policies cap is 500 a network): a gateway node, and a node per writer to rename. */
async function freshNetwork(admin: ReturnType<typeof api>, round: number) {
  const group = await expectCreated("group", () => admin.post("/groups", { name: `writes-${round}` }));
  const network = await expectCreated("network", () =>
    admin.post("/networks", { groupId: group.id, name: "w", cidr: `10.${80 + round}.0.0/16` }),
  );
  const region = await expectCreated("region", () => admin.post("/regions", { name: `r-writes-${round}` }));
  const gateway = await expectCreated("gateway", () => admin.post("/gateways", { regionId: region.id, name: `g-writes-${round}` }));
  const gatewayNode = await expectCreated("gateway node", () =>
    admin.post("/nodes", { networkId: network.id, name: "gw", publicKey: key(), roles: ["gateway"], gatewayId: gateway.id }),
  );
  // A writer renames its own node, so renames never collide.
  const renamed = await inParallel(50, 8, (i) =>
    expectCreated("node", () => admin.post("/nodes", { networkId: network.id, name: `r${i}`, publicKey: key() })),
  );
  return { networkId: network.id as string, gatewayNodeId: gatewayNode.id as string, renamed: renamed.map((node) => node.id as string) };
}

type Net = Awaited<ReturnType<typeof freshNetwork>> & { policies?: string[] };

/** 50 policies through the network's gateway, policy i to 172.20.i.0/24: what the PUT row replaces. */
async function withPolicies(admin: ReturnType<typeof api>, net: Net): Promise<Net> {
  const made = await inParallel(50, 8, (i) =>
    expectCreated("policy", () =>
      admin.post(`/networks/${net.networkId}/routing-policies`, {
        name: `q${i}`,
        type: "via_gateway",
        destinationCidr: `172.20.${i}.0/24`,
        gatewayPath: [net.gatewayNodeId],
      }),
    ),
  );
  return { ...net, policies: made.map((policy) => policy.id as string) };
}

/** A key unique to (round, wrk thread, request): 42 digits and a last character with its two low bits zero. */
const luaKey = (round: number) => `string.format("%02d%040dA=", ${round % 100}, t * 10000000 + n)`;

/** The writes the issue measured: node creates and renames, policy and DNS writes (wrk targets), and policy replaces. */
const WRITE_KINDS: {
  label: string;
  target: (net: Net, round: number) => Omit<WrkTarget, "label" | "token">;
  prepare?: typeof withPolicies;
}[] = [
  {
    label: "node create",
    target: (net, round) => ({
      method: "POST",
      path: "/api/v1/nodes",
      luaBody: `string.format('{"networkId":"${net.networkId}","name":"c%d-%d","publicKey":"%s"}', t, n, ${luaKey(round)})`,
    }),
  },
  {
    label: "node rename",
    // Each request renames the next of the network's 50 spare nodes (names unique by thread and count).
    target: (net) => ({
      method: "PATCH",
      path: "/api/v1/nodes/x",
      luaPath: `({${net.renamed.map((id) => `"/api/v1/nodes/${id}"`).join(",")}})[(n % ${net.renamed.length}) + 1]`,
      luaBody: `string.format('{"name":"r%d-%d"}', t, n)`,
    }),
  },
  {
    // Two seconds: a network holds at most 500 policies, and five seconds of creates reached the cap, so the row
    // measured the cap (500 / 5 s), not the writes.
    label: "routing policy POST (2 s)",
    target: (net) => ({
      seconds: Math.min(2, WRK.seconds),
      method: "POST",
      path: `/api/v1/networks/${net.networkId}/routing-policies`,
      luaBody: `string.format('{"name":"p%d-%d","type":"via_gateway","destinationCidr":"172.%d.%d.%d/32","gatewayPath":["${net.gatewayNodeId}"]}', t, n, 16 + t, math.floor(n / 256) % 256, n % 256)`,
    }),
  },
  {
    // Policy writes that do not grow the network (POST stops at the 500-policy cap): each request replaces
    // the next of 50 policies, keeping its destination and renaming it.
    label: "routing policy PUT",
    prepare: withPolicies,
    target: (net) => ({
      method: "PUT",
      path: "/api/v1/routing-policies/x",
      luaPath: `({${net.policies!.map((id) => `"/api/v1/routing-policies/${id}"`).join(",")}})[(n % 50) + 1]`,
      luaBody: `string.format('{"name":"q%d-%d","type":"via_gateway","destinationCidr":"172.20.%d.0/24","gatewayPath":["${net.gatewayNodeId}"]}', t, n, n % 50)`,
    }),
  },
  {
    label: "DNS record POST",
    target: (net) => ({
      method: "POST",
      path: `/api/v1/networks/${net.networkId}/dns/records`,
      luaBody: `string.format('{"name":"d%d-%d","type":"A","value":"192.0.2.1"}', t, n)`,
    }),
  },
];

export async function measureWrites(server: WorkerServer): Promise<WriteResult[]> {
  const token = await login(server.baseUrl, server.admin);
  const admin = api(server.baseUrl, token);
  const scratch = await mkdtemp(join(tmpdir(), "bench-writes-"));
  const results: WriteResult[] = [];
  let round = 0;
  for (const writers of WRITERS) {
    const baselines: WrkTarget[] = [
      { label: "baseline: bare handler (GET /health)", method: "GET", path: "/api/v1/health", connections: writers },
      { label: "baseline: one D1 row (GET /health/ready)", method: "GET", path: "/api/v1/health/ready", connections: writers },
    ];
    for (const target of baselines) results.push({ ...(await runWrk(server.baseUrl, target, scratch)), writers });
    for (const kind of WRITE_KINDS) {
      const fresh = await freshNetwork(admin, round);
      const net = kind.prepare ? await kind.prepare(admin, fresh) : fresh;
      const meter = async () =>
        (await admin.get(`/networks/${net.networkId}/writer`)).body as { statements: number; batches?: number; combinedWrites?: number };
      const before = await meter();
      const target = { label: kind.label, token, connections: writers, ...kind.target(net, round++) };
      // The policy replace at the most writers, profiled: where a policy write's CPU goes.
      const profiled = kind.label === "routing policy PUT" && writers === Math.max(...WRITERS);
      const run = () => runWrk(server.baseUrl, target, scratch);
      const measured = profiled ? await profileDuring(server, run) : null;
      const result = measured?.result ?? (await run());
      const after = await meter();
      const batches = (after.batches ?? 0) - (before.batches ?? 0);
      results.push({
        ...result,
        writers,
        statementsPerWrite: (after.statements - before.statements) / Math.max(1, result.requests),
        ...(batches > 0 ? { writesPerBatch: ((after.combinedWrites ?? 0) - (before.combinedWrites ?? 0)) / batches } : {}),
        ...(measured ? { profile: profileLines(measured) } : {}),
      });
    }
  }
  await rm(scratch, { recursive: true, force: true });
  return results;
}

/** Answers that did what they asked per second: a write refused (the policy cap's 409) is not a write. */
const succeeded = (r: WrkResult) => (r.requests > 0 ? (r.requestsPerSecond * (r.requests - r.non2xx)) / r.requests : 0);

export function writeLines(results: WriteResult[]): string[] {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  const baseline = (writers: number) =>
    results.find((r) => r.writers === writers && r.label.startsWith("baseline: one D1 row"))!.requestsPerSecond;
  return [
    `Writes to one network: wrk -t2 -c<writers> -d${WRK.seconds}s per row against wrangler dev (local D1), ${new Date().toISOString()}`,
    "",
    "| write | writers | 2xx/s | p50 ms | p99 ms | vs one-D1-read baseline | non-2xx | writer D1 statements/write | writes/D1 batch |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(
      (r) =>
        `| ${r.label} | ${r.writers} | ${fmt(succeeded(r))} | ${fmt(r.p50Ms, 2)} | ${fmt(r.p99Ms, 2)} | ${fmt((100 * succeeded(r)) / baseline(r.writers), 0)}% | ${r.non2xx} | ${r.statementsPerWrite === undefined ? "" : fmt(r.statementsPerWrite, 2)} | ${r.writesPerBatch === undefined ? "" : fmt(r.writesPerBatch, 1)} |`,
    ),
    ...results.flatMap((r) => (r.profile ? ["", `CPU profile of "${r.label}" at ${r.writers} writers:`, ...r.profile] : [])),
  ];
}
