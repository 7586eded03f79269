// The client library as a user gets it: `npm run client:build` (compiled JS and declarations), then the
// spec walkthrough example run with plain Node against the real Worker served by `wrangler dev`.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WalkthroughResult } from "../../../client/examples/walkthrough.ts";
import { check } from "../support/command.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

describe("the client library's walkthrough example", () => {
  let server: WorkerServer;

  beforeAll(async () => {
    server = await startWorker();
    await check(["npm", "run", "--silent", "client:build"], { cwd: REPO_ROOT });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("runs the whole walkthrough from the built package and reads back what the control plane generated", async () => {
    const output = await check(["node", "client/dist/examples/run-walkthrough.js", "--json"], {
      cwd: REPO_ROOT,
      env: { ...process.env, API_URL: server.baseUrl, WGO_EMAIL: server.admin.email, WGO_PASSWORD: server.admin.password },
    });
    const result = JSON.parse(output) as WalkthroughResult;
    const [gw1, gw2] = result.gatewayNodes;

    expect(result.policy.gatewayPath).toEqual([gw1?.id, gw2?.id]);
    // The laptop sends the destination to the first hop, and its intent names the whole chain.
    const intent = result.laptopConfig.routingIntent.find((entry) => entry.policyId === result.policy.id);
    expect(intent).toMatchObject({ destinationCidr: "192.168.50.0/24", role: "source", path: [gw1?.id, gw2?.id], nextHop: gw1?.id });
    const firstHop = result.laptopConfig.peers.find((peer) => peer.nodeId === gw1?.id);
    expect(firstHop?.allowedIps).toContain("192.168.50.0/24");
    expect(result.laptopWgQuick).toContain(`PublicKey = ${gw1?.publicKey}`);
    expect(result.laptopWgQuick).toMatch(/AllowedIPs = .*192\.168\.50\.0\/24/);

    expect(result.corefile).toContain(result.network.dnsDomain);
    expect(result.corefileUnchanged).toBe(true);
    expect(result.runtimeStatus.networkId).toBe(result.network.id);
    expect(result.runtimeStatus.routing.unreported).toEqual(expect.arrayContaining([result.laptop.id]));
  });
});
