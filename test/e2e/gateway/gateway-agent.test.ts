// Issue 15's proof: three gateway machines run nothing but `wgo gateway run` (no config or key written by
// the test); a device enrols with `wgo enrol` + `wgo up`, pings through G1 → G2 → G3 and resolves a name
// of the network through the DNS servers its config names; a new path reaches the agents by long poll;
// a stopped agent becomes gateway.down; a revoked credential stops an agent with a clear message.
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byId, expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { run, waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, describeLab, killLabProcesses } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { wgoMachine } from "../wgo/wgo-process.ts";
import { startAgent, wgoArgv, wgoEnv, type AgentProcess } from "./agent-process.ts";
import { createChainNetwork, gatewayCounters, gatewaysReportCurrent, type ChainNetwork } from "./chain-network.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the gateway agent e2e: ${dataPlane.reason} !!!\n`);

const DESTINATION = "192.168.98.10";
const DEVICE_IF = `wd${randomBytes(2).toString("hex")}`;
const GATEWAYS = ["g1", "g2", "g3"] as const;

describe.skipIf(!dataPlane.ok)("gateways run by `wgo gateway run` only", () => {
  let server: WorkerServer;
  let admin: TypedApiClient;
  let lab: Lab;
  let hosts: Record<"d" | (typeof GATEWAYS)[number], Host>;
  let chain: ChainNetwork;
  const agents: Partial<Record<(typeof GATEWAYS)[number], AgentProcess>> = {};
  let hooks: WebhookReceiver;
  /** What `wgo up` reported for the device, its DNS included. */
  let deviceUp: { action: string; dns: { servers: string[]; search: string[]; via: string } | null };
  const scratch = mkdtempSync(join(tmpdir(), "wgo-gateways-"));
  const deviceWgo = () => wgoMachine(server.baseUrl, join(scratch, "device"));
  const agentOutput = () => GATEWAYS.map((g) => `## agent ${g}\n${agents[g]?.output() ?? "(not started)"}`).join("\n");

  beforeAll(async () => {
    server = await startWorker({ vars: { OFFLINE_AFTER_SECONDS: "30", WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" } });
    hooks = await startWebhookReceiver();
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    lab = createLab("gwagent");
    hosts = { d: await lab.addHost("d"), g1: await lab.addHost("g1"), g2: await lab.addHost("g2"), g3: await lab.addHost("g3") };
    const underlay = await lab.connect([hosts.d, hosts.g1, hosts.g2, hosts.g3], "10.250.61.0/24");
    chain = await createChainNetwork(admin, { cidr: "10.61.0.0/24", destination: "192.168.98.0/24", underlay: underlay.slice(1) });
    await hosts.g3.addStandInDestination(`${DESTINATION}/24`);
  });

  afterAll(async () => {
    for (const agent of Object.values(agents)) await agent?.stop();
    // wgo leaves wireguard-go and knotd running when its agent stops (as systemd's KillMode=process does).
    await killLabProcesses(lab);
    await lab?.cleanup();
    await server?.stop();
    await hooks?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("each gateway enrols with its token and configures itself: keys registered, interfaces up, DNS served", async () => {
    for (const [index, name] of GATEWAYS.entries()) {
      const stateDir = join(scratch, name);
      const enrolled = await run(
        wgoArgv([
          "--api",
          server.baseUrl,
          "--json",
          "gateway",
          "enrol",
          "--token",
          chain.tokens[index]!,
          "--name",
          name,
          "--state-dir",
          stateDir,
        ]),
        { env: wgoEnv },
      );
      expect(enrolled.code, enrolled.stderr).toBe(0);
      agents[name] = startAgent(stateDir, hosts[name].namespace);
    }
    await waitFor(
      "every gateway node to have its agent's key and serve DNS",
      async () => {
        const nodes = await Promise.all(
          chain.gatewayNodes.map(async (id) => expectAnswer(await admin.GET("/api/v1/nodes/{id}", byId(id)), 200, "node")),
        );
        return nodes.every((node) => node.publicKey !== null && node.servesDns);
      },
      { timeoutMs: 30_000, details: agentOutput },
    );
    await waitFor("the gateways to report the current revisions", () => gatewaysInSync(), { timeoutMs: 30_000, details: agentOutput });
  });

  it("a device enrolled with wgo pings the destination through G1, G2, G3 in order", async () => {
    const wgo = deviceWgo();
    await wgo(["enrol", "--name", "laptop", "--enrolment-key", chain.enrolmentKey]);
    [deviceUp] = (
      await wgo(["up", "--name", "laptop", "--netns", hosts.d.namespace, "--interface", DEVICE_IF, "--method", "setconf"])
    ).json;
    expect(deviceUp.action).toBe("created");
    const reached = await hosts.d.pingUntilReply(DESTINATION, 20_000);
    expect(reached, reached ? "" : `${await describeLab(lab)}\n${agentOutput()}`).toBe(true);
    const before = await gatewayCounters(hosts, chain);
    expect(await hosts.d.ping(DESTINATION, 5)).toBe(true);
    const after = await gatewayCounters(hosts, chain);
    expect(after.g1ToG2, "G1 forwards to G2").toBeGreaterThan(before.g1ToG2);
    expect(after.g2ToG3, "G2 forwards to G3").toBeGreaterThan(before.g2ToG3);
    expect(after.g3FromG2, "G3 receives from G2").toBeGreaterThan(before.g3FromG2);
  });

  it("resolves a record of the network through the DNS servers its config names", async () => {
    expect(deviceUp.dns, "wgo up applied the servers and search domain the config names").toEqual({
      servers: chain.gatewayAddresses,
      search: [chain.domain],
      via: "netns",
    });
    const resolved = await run(["ip", "netns", "exec", hosts.d.namespace, "getent", "hosts", `app.${chain.domain}`]);
    expect(resolved.stdout, resolved.stderr).toMatch(new RegExp(`^${DESTINATION.replaceAll(".", "\\.")}\\s+app\\.`));
  });

  it("a new path reaches all three agents within seconds, and traffic takes it", async () => {
    const started = Date.now();
    await chain.setPath([chain.gatewayNodes[0]!, chain.gatewayNodes[2]!]);
    await waitFor("all three gateways to apply the new revision", () => gatewaysInSync(), {
      timeoutMs: 20_000,
      intervalMs: 50,
      details: agentOutput,
    });
    const elapsed = Date.now() - started;
    console.log(`gateway agents: a policy change reached all three gateways in ${elapsed} ms`);
    await deviceWgo()(["heartbeat", "--name", "laptop", "--once", "--apply"]);
    expect(await hosts.d.pingUntilReply(DESTINATION, 20_000)).toBe(true);
    const before = await gatewayCounters(hosts, chain);
    expect(await hosts.d.ping(DESTINATION, 5)).toBe(true);
    const after = await gatewayCounters(hosts, chain);
    expect(after.g1ToG3, "G1 now forwards straight to G3").toBeGreaterThan(before.g1ToG3);
    expect(after.g2Total - before.g2Total, "G2 carries none of it").toBeLessThan(200);
  });

  it("an agent restarts cleanly from its state directory: traffic never stops, the key stays, it is in sync again", async () => {
    const keyBefore = expectAnswer(await admin.GET("/api/v1/nodes/{id}", byId(chain.gatewayNodes[0]!)), 200, "node").publicKey;
    expect(await agents.g1!.stop()).toBe(0);
    expect(await hosts.d.ping(DESTINATION, 3), "the data plane does not depend on the agent").toBe(true);
    agents.g1 = startAgent(join(scratch, "g1"), hosts.g1.namespace);
    await waitFor(
      "G1's restarted agent to report",
      async () => (await gatewaysInSync()) && agents.g1!.output().includes("routing revision"),
      {
        timeoutMs: 20_000,
        details: agentOutput,
      },
    );
    expect(expectAnswer(await admin.GET("/api/v1/nodes/{id}", byId(chain.gatewayNodes[0]!)), 200, "node").publicKey).toBe(keyBefore);
    expect(await hosts.d.ping(DESTINATION, 3)).toBe(true);
  });

  it("a stopped agent is seen as gateway.down; a revoked credential stops its agent with a clear message", async () => {
    expectAnswer(
      await admin.POST("/api/v1/notifications/channels", {
        body: { type: "webhook", target: hooks.url, events: ["gateway.down"] },
      }),
      201,
      "webhook channel",
    );
    // Local crons never fire on their own; GET /__scheduled runs the scheduled handler (src/dev-cron-trigger.ts).
    const runCron = async () => expect((await fetch(`${server.baseUrl}/__scheduled`)).status, server.logs().slice(-2000)).toBe(200);
    await runCron(); // every gateway reported: recorded as up, silently
    expect(await agents.g3!.stop()).toBe(0);
    const stoppedAt = Date.now();

    const agent = expectAnswer(
      await admin.GET("/api/v1/agents", { params: { query: { kind: "gateway-daemon" } } }),
      200,
      "agents",
    ).items.find((a) => a.gatewayId === chain.inventoryGateways[1]);
    expectAnswer(await admin.POST("/api/v1/agents/{id}/revoke", byId(agent!.id)), 200, "revoke");
    // Its long poll ends within 25 s; the next request is refused.
    const exit = await Promise.race([agents.g2!.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 40_000))]);
    expect(exit, agents.g2!.output()).toBe(3);
    expect(agents.g2!.output()).toMatch(/refused the agent credential \(401.*revoked or rotated/);

    // OFFLINE_AFTER_SECONDS is 30 here: past it, the detection calls G3's gateway down.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, stoppedAt + 32_000 - Date.now())));
    await runCron(); // detection, then the delivery queue's first attempt
    const down = hooks.received.filter((hook) => hook.event === "gateway.down");
    expect(
      down.map((hook) => hook.body.data.gateway.id),
      "a gateway.down webhook for G3's gateway",
    ).toContain(chain.inventoryGateways[2]);
    expect(down.find((hook) => hook.body.data.gateway.id === chain.inventoryGateways[2])!.body.data).toMatchObject({
      reason: "nodes_offline",
      nodeIds: [chain.gatewayNodes[2]],
    });
  });

  it("leaves no namespace or process behind", async () => {
    for (const agent of Object.values(agents)) await agent?.stop();
    await killLabProcesses(lab);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
  });

  /** No gateway node lags behind, or has not reported, the network's current routing and DNS revisions. */
  const gatewaysInSync = () => gatewaysReportCurrent(admin, chain.networkId, chain.gatewayNodes, { dns: true });
});
