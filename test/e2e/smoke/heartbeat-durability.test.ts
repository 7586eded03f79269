// Issue 30: a heartbeat is answered only once its network's object has stored it (its SQLite, behind the
// output gate), so an acknowledged beat survives a crash. 20 devices of one network beat without pause, each
// reporting one tunnel whose rxBytes is the beat's number, while the server (wrangler and workerd, the whole
// process group) is SIGKILLed and started again three times on the same state. Afterwards every device's
// tunnel shows at least the last beat it got a 200 for, and its node a last-seen time.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, login } from "../support/api-client.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { killRepeatedly, sleep } from "./sigkills.ts";

const DEVICES = 20;
const KILLS = 3;
const key = () => randomBytes(32).toString("base64");

describe("heartbeats across SIGKILLs of the server", () => {
  let server: WorkerServer;
  beforeAll(async () => {
    server = await startWorker();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("every beat answered 200 before a kill is in the network's object after the restarts", async () => {
    const admin = api(server.baseUrl, await login(server.baseUrl, server.admin));
    const group = (await admin.post("/groups", { name: "beats" })).body;
    const network = (await admin.post("/networks", { groupId: group.id, name: "b", cidr: "10.91.0.0/16" })).body;
    const keys = Array.from({ length: DEVICES }, key);
    const devices: { deviceId: string; nodeId: string; token: string; revision: number }[] = [];
    for (const [i, publicKey] of keys.entries()) {
      const enrolled = await admin.post("/client/devices", { networkId: network.id, name: `b${i}`, publicKey });
      expect(enrolled.status).toBe(201);
      devices.push({
        deviceId: enrolled.body.device.id,
        nodeId: enrolled.body.node.id,
        token: enrolled.body.deviceToken,
        revision: enrolled.body.config?.routingRevision ?? 0,
      });
    }

    // Each device's one peer is the next device; its rxBytes counts the device's beats.
    const acknowledged = new Array<number>(DEVICES).fill(-1);
    let failed = 0;
    let beating = true;
    const beat = async (index: number) => {
      const device = devices[index]!;
      const client = api(server.baseUrl, device.token);
      for (let n = 0; beating; n++) {
        const peer = { publicKey: keys[(index + 1) % DEVICES]!, lastHandshakeAt: new Date().toISOString(), rxBytes: n, txBytes: n };
        try {
          const answer = await client.post(`/client/devices/${device.deviceId}/heartbeat`, {
            appliedRevision: device.revision,
            peers: [peer],
          });
          if (answer.status === 200) acknowledged[index] = n;
          else failed++;
        } catch {
          failed++; // the server is down: connection refused or reset
          await sleep(100);
        }
      }
    };
    const beaters = devices.map((_, index) => beat(index));
    const beatsSoFar = () => acknowledged.reduce((sum, n) => sum + n + 1, 0);
    const acknowledgedAtKill = await killRepeatedly(server, KILLS, beatsSoFar);
    beating = false;
    await Promise.all(beaters);

    // Beats were answered before each kill and after the last restart; some failed while it was down.
    expect(acknowledgedAtKill[0]).toBeGreaterThan(0);
    for (let kill = 1; kill < KILLS; kill++) expect(acknowledgedAtKill[kill]).toBeGreaterThan(acknowledgedAtKill[kill - 1]!);
    expect(failed).toBeGreaterThan(0);

    const reader = api(server.baseUrl, await login(server.baseUrl, server.admin));
    const tunnels = await reader.get(`/tunnels?networkId=${network.id}&limit=200`);
    expect(tunnels.status).toBe(200);
    const byNode = new Map((tunnels.body.items as { fromNodeId: string; rxBytes: number }[]).map((row) => [row.fromNodeId, row.rxBytes]));
    const behind = devices.flatMap((device, index) => {
      const stored = byNode.get(device.nodeId) ?? -1;
      return stored < acknowledged[index]! ? [`device ${index}: acknowledged beat ${acknowledged[index]}, stored ${stored}`] : [];
    });
    for (const device of devices) expect((await reader.get(`/nodes/${device.nodeId}`)).body.lastSeenAt).toBeTruthy();
    console.log(
      `heartbeat durability: ${DEVICES - behind.length} of ${DEVICES} devices hold their last acknowledged beat (${beatsSoFar()} beats acknowledged, ${failed} failed while down, ${KILLS} SIGKILLs)`,
    );
    expect(behind).toEqual([]);
  });
});
