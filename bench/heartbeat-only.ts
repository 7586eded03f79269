// `BENCH_ONLY=heartbeat npm run bench`: only the heartbeat figures, without the rest of the bench (which
// takes long on shared cores): one network grown to the node cap through the API, the bare-handler
// baseline, heartbeats with empty peer lists (the old figure) and as a real device sends them.
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, login } from "../test/e2e/support/api-client.ts";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { measureRealHeartbeats, REAL_HEARTBEAT_DEVICES, realHeartbeatLines } from "./real-heartbeats.ts";
import { expectCreated, inParallel } from "./seed.ts";
import { runWrk, WRK } from "./wrk.ts";

/** src/lib/limits.ts nodesPerNetwork. */
const NODE_CAP = 10_000;
const keys = (count: number) => Array.from({ length: count }, () => randomBytes(32).toString("base64"));

export async function heartbeatOnly(server: WorkerServer): Promise<string[]> {
  const admin = api(server.baseUrl, await login(server.baseUrl, server.admin));
  const group = await expectCreated("group", () => admin.post("/groups", { name: "heartbeats" }));
  const network = await expectCreated("network", () => admin.post("/networks", { groupId: group.id, name: "hb", cidr: "10.64.0.0/18" }));
  const grown = NODE_CAP - REAL_HEARTBEAT_DEVICES;
  const peerKeys = keys(grown);
  const started = Date.now();
  await inParallel(grown, 8, (i) =>
    expectCreated("node", () => admin.post("/nodes", { networkId: network.id, name: `n${i}`, publicKey: peerKeys[i] })),
  );
  console.log(`heartbeat bench: ${grown} nodes in ${Math.round((Date.now() - started) / 1000)} s`);
  const scratch = await mkdtemp(join(tmpdir(), "bench-hb-"));
  const bare = await runWrk(
    server.baseUrl,
    { label: "baseline: bare handler (GET /health)", method: "GET", path: "/api/v1/health" },
    scratch,
  );
  const real = await measureRealHeartbeats(server, admin, network.id, peerKeys, keys(REAL_HEARTBEAT_DEVICES));
  return [
    `wrk -t${WRK.threads} -c${WRK.connections} -d${WRK.seconds}s against wrangler dev (local D1), ${new Date().toISOString()}`,
    "",
    ...realHeartbeatLines(real, bare),
  ];
}
