// Issue 43's data-plane proof: a person the directory manages (their only membership given by an IdP group
// mapping) pings a LAN behind a two-gateway chain from a device they enrolled with `wgo up`; the directory's
// SCIM client sends PATCH active:false; once that answers, the ping stops. Printed: the time from the answer
// to the last reply (negative when the last reply came before the answer), and to the gateways' revision.
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byId, expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, describeLab, killLabProcesses } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { wgoMachine } from "../wgo/wgo-process.ts";
import { type AgentProcess, enrolAndRunAgent } from "../gateway/agent-process.ts";
import { createChainNetwork, gatewaysReportCurrent, type ChainNetwork } from "../gateway/chain-network.ts";
import { watchPing } from "../gateway/ping-watch.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the SCIM deprovisioning e2e: ${dataPlane.reason} !!!\n`);

const DESTINATION = "192.168.77.10";
const DEVICE_IF = `sc${randomBytes(2).toString("hex")}`;
const GATEWAYS = ["g1", "g2"] as const;
/**
 * The goal is under 1 s from the answer to the last reply (issue 43): the device leaves the first hop's peers
 * by the gateway agent's long poll, as disabling through the API does (0.1 s). 5 s is the bound the issue allows:
 * 4 s of margin for a loaded 2-core machine (this suite runs beside the other e2e files).
 */
const BOUND_MS = 5_000;

describe.skipIf(!dataPlane.ok)("SCIM deprovisioning cuts a device off at once", () => {
  let server: WorkerServer;
  let admin: TypedApiClient;
  let lab: Lab;
  let hosts: Record<"d" | (typeof GATEWAYS)[number], Host>;
  let chain: ChainNetwork;
  let scimToken: string;
  let person: { id: string; email: string; password: string };
  const agents: Partial<Record<(typeof GATEWAYS)[number], AgentProcess>> = {};
  const scratch = mkdtempSync(join(tmpdir(), "wgo-scim-"));
  const agentOutput = () => GATEWAYS.map((g) => `## agent ${g}\n${agents[g]?.output() ?? "(not started)"}`).join("\n");
  const scim = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${server.baseUrl}/api/v1/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${scimToken}`, "content-type": "application/scim+json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, any> | null };
  };

  beforeAll(async () => {
    server = await startWorker();
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    lab = createLab("scim");
    hosts = { d: await lab.addHost("d"), g1: await lab.addHost("g1"), g2: await lab.addHost("g2") };
    const underlay = await lab.connect([hosts.d, hosts.g1, hosts.g2], "10.250.77.0/24");
    chain = await createChainNetwork(admin, { cidr: "10.77.0.0/24", destination: "192.168.77.0/24", underlay: underlay.slice(1) });
    await hosts.g2.addStandInDestination(`${DESTINATION}/24`);
    const network = expectAnswer(await admin.GET("/api/v1/networks/{id}", byId(chain.networkId)), 200, "network");

    // The directory: a SCIM token, a person, and an IdP group mapped onto the network's group as member.
    scimToken = expectAnswer(await admin.POST("/api/v1/admin/scim-tokens", { body: { name: "okta" } }), 201, "SCIM token").token;
    person = { id: "", email: "ada@example.com", password: "a long enough password" };
    person.id = expectAnswer(
      await admin.POST("/api/v1/users", { body: { email: person.email, password: person.password, name: "Ada" } }),
      201,
      "user",
    ).id;
    expectAnswer(
      await admin.POST("/api/v1/admin/idp-group-mappings", { body: { idpGroup: "Engineering", groupId: network.groupId, role: "member" } }),
      201,
      "mapping",
    );
    const pushed = await scim("POST", "/Groups", { displayName: "Engineering", members: [{ value: person.id }] });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(201);

    for (const [index, name] of GATEWAYS.entries()) {
      agents[name] = await enrolAndRunAgent(server.baseUrl, chain.tokens[index]!, name, join(scratch, name), hosts[name].namespace);
    }
    await waitFor("the gateways to report the current revisions", () => gatewaysReportCurrent(admin, chain.networkId, chain.gatewayNodes), {
      timeoutMs: 30_000,
      details: agentOutput,
    });
  });

  afterAll(async () => {
    for (const agent of Object.values(agents)) await agent?.stop();
    await killLabProcesses(lab);
    await lab?.cleanup();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("the person's laptop pings the LAN through g1 → g2; PATCH active:false answers and the replies stop", async () => {
    const wgo = wgoMachine(server.baseUrl, join(scratch, "laptop"));
    const [up] = (
      await wgo(
        ["up", "--network", chain.networkId, "--name", "laptop", "--email", person.email, "--password-stdin"].concat([
          "--netns",
          hosts.d.namespace,
          "--interface",
          DEVICE_IF,
          "--method",
          "setconf",
        ]),
        { input: `${person.password}\n` },
      )
    ).json;
    expect(up.action).toBe("created");
    const reached = await hosts.d.pingUntilReply(DESTINATION, 20_000);
    expect(reached, reached ? "" : `${await describeLab(lab)}\n${agentOutput()}`).toBe(true);

    const ping = watchPing(hosts.d.namespace, DESTINATION);
    try {
      await waitFor("two seconds of replies", () => ping.replies().filter((t) => t > Date.now() - 2_000).length >= 8, {
        timeoutMs: 10_000,
      });
      const sent = Date.now();
      const answer = await scim("PATCH", `/Users/${person.id}`, {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "replace", path: "active", value: false }],
      });
      const answered = Date.now();
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body?.active).toBe(false);
      await waitFor("the gateways to apply the removal", () => gatewaysReportCurrent(admin, chain.networkId, chain.gatewayNodes), {
        timeoutMs: 20_000,
        intervalMs: 50,
        details: agentOutput,
      });
      const applied = Date.now();
      // Replies still in flight when the first hop dropped the peer land within a second; then none may come.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const lastReply = ping.replies().at(-1)!;
      console.log(
        `SCIM PATCH active:false: answered in ${answered - sent} ms; the last reply came ${lastReply - answered} ms after the answer; ` +
          `both gateways applied the removal ${applied - answered} ms after it`,
      );
      expect(lastReply - answered, agentOutput()).toBeLessThan(BOUND_MS);
      expect(ping.replies().filter((t) => t > applied + 1_000)).toEqual([]);
    } finally {
      ping.stop();
    }
    expect(await hosts.d.ping(DESTINATION, 2)).toBe(false);
    // The person cannot sign in again to bring the device back; the device's own credential is refused.
    const relogin = await typedApi(server.baseUrl).POST("/api/v1/auth/login", { body: { email: person.email, password: person.password } });
    expect(relogin.response.status).toBe(401);
  });

  it("takes the gateways' interfaces down and leaves nothing behind", async () => {
    for (const agent of Object.values(agents)) await agent?.stop();
    await killLabProcesses(lab);
    expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
  });
});
