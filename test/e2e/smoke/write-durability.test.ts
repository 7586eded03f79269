// Issue 30 item 5: writes of one network committed together lose nothing acknowledged. 50 clients write
// node creates and DNS records to one network without pause while the server (wrangler and workerd, the
// whole process group) is SIGKILLed and started again three times on the same state; afterwards every
// write that was answered 2xx is there, read back through the API one by one.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, login } from "../support/api-client.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { killRepeatedly, sleep } from "./sigkills.ts";

const WRITERS = 50;
const KILLS = 3;
const key = () => randomBytes(32).toString("base64");

describe("concurrent writes across SIGKILLs of the server", () => {
  let server: WorkerServer;
  beforeAll(async () => {
    server = await startWorker();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("every write answered 2xx before a kill is present after the restarts", async () => {
    const token = await login(server.baseUrl, server.admin);
    const admin = api(server.baseUrl, token);
    const group = (await admin.post("/groups", { name: "durable" })).body;
    const network = (await admin.post("/networks", { groupId: group.id, name: "d", cidr: "10.90.0.0/16" })).body;
    expect(network.id).toBeTruthy();

    const acknowledged: { kind: "node" | "record"; id: string }[] = [];
    let failed = 0;
    let writing = true;
    const writer = async (client: number) => {
      for (let n = 0; writing; n++) {
        const kind = (client + n) % 2 === 0 ? "node" : "record";
        const path = kind === "node" ? "/nodes" : `/networks/${network.id}/dns/records`;
        const body =
          kind === "node"
            ? { networkId: network.id, name: `n${client}-${n}`, publicKey: key() }
            : { name: `r${client}-${n}`, type: "A", value: "192.0.2.7" };
        try {
          const answer = await admin.post(path, body);
          if (answer.status >= 200 && answer.status < 300) acknowledged.push({ kind, id: answer.body.id });
          else failed++;
        } catch {
          failed++; // the server is down: connection refused or reset
          await sleep(100);
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, client) => writer(client));
    const acknowledgedAtKill = await killRepeatedly(server, KILLS, () => acknowledged.length);
    writing = false;
    await Promise.all(writers);

    // Writes were acknowledged before each kill and after the last restart; some failed while it was down.
    expect(acknowledgedAtKill[0]).toBeGreaterThan(0);
    for (let kill = 1; kill < KILLS; kill++) expect(acknowledgedAtKill[kill]).toBeGreaterThan(acknowledgedAtKill[kill - 1]!);
    expect(acknowledged.length).toBeGreaterThan(acknowledgedAtKill[KILLS - 1]!);
    expect(failed).toBeGreaterThan(0);

    const reader = api(server.baseUrl, await login(server.baseUrl, server.admin));
    const missing: string[] = [];
    for (let start = 0; start < acknowledged.length; start += 16) {
      await Promise.all(
        acknowledged.slice(start, start + 16).map(async ({ kind, id }) => {
          const answer = await reader.get(kind === "node" ? `/nodes/${id}` : `/dns/records/${id}`);
          if (answer.status !== 200) missing.push(`${kind} ${id}: ${answer.status}`);
        }),
      );
    }
    console.log(
      `write durability: ${acknowledged.length - missing.length} of ${acknowledged.length} acknowledged writes present after ${KILLS} SIGKILLs (${failed} failed while down)`,
    );
    expect(missing).toEqual([]);
  });
});
