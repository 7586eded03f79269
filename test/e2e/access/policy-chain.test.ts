// Issue 26's proof through a chain (docs/access.md): a LAN behind a 2-hop via_gateway chain run by
// `wgo gateway run` only, laptops configured by `wgo` only. The tag the policy allows reaches the LAN; a
// deny carved out of that allow holds; another tag, whose route exists (it may reach part of the LAN), is
// dropped at the FIRST hop, and that hop's nftables counters show which rule stopped it.
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { run, waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, describeLab, killLabProcesses } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { wgoMachine, type Wgo } from "../wgo/wgo-process.ts";
import { type AgentProcess, startAgent, wgoArgv, wgoEnv } from "../gateway/agent-process.ts";
import {
  agentDomain,
  agentInterface,
  createGatewayFleet,
  createPolicy,
  type GatewayFleet,
  gatewaysReportCurrent,
} from "../gateway/chain-network.ts";
import { type Enrolled, enrolmentKey, enrolTagged, enterPolicyMode, putAccessPolicy } from "./access-lab.ts";
import { filterCounters, type Listeners, startListeners, tcpAttempt, tcpOpens } from "./flows.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the access-policy chain e2e: ${dataPlane.reason} !!!\n`);

const LAN = "192.168.97.0/24";
const LAN_HOST = "192.168.97.10";
const LAPTOPS = ["dev", "ops"] as const;
type Laptop = (typeof LAPTOPS)[number];
const GATEWAYS = ["g1", "g2"] as const;
const suffix = randomBytes(2).toString("hex");

describe.skipIf(!dataPlane.ok)("access policy through a gateway chain, on the data plane", () => {
  let server: WorkerServer;
  let admin: TypedApiClient;
  let lab: Lab;
  let fleet: GatewayFleet;
  let listeners: Listeners | undefined;
  const hosts = {} as Record<Laptop | (typeof GATEWAYS)[number], Host>;
  const laptops = {} as Record<Laptop, Enrolled>;
  const agents: Partial<Record<(typeof GATEWAYS)[number], AgentProcess>> = {};
  const scratch = mkdtempSync(join(tmpdir(), "wgo-access-chain-"));
  const wgo = (laptop: Laptop): Wgo => wgoMachine(server.baseUrl, join(scratch, laptop));
  const agentOutput = () => GATEWAYS.map((g) => `## agent ${g}\n${agents[g]?.output() ?? "(not started)"}`).join("\n");
  /** A hop's forward counters, in the namespace `wgo gateway run` keeps the network's nodes in. */
  const hopCounters = (index: 0 | 1) =>
    filterCounters(
      agentDomain(hosts[GATEWAYS[index]].namespace, fleet.networkId),
      `wgo_access_${agentInterface(fleet.gatewayNodes[index]!)}`,
    );

  beforeAll(async () => {
    server = await startWorker();
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    lab = createLab("acchain");
    for (const name of [...LAPTOPS, ...GATEWAYS]) hosts[name] = await lab.addHost(name);
    const underlay = await lab.connect(Object.values(hosts), "10.252.27.0/24");
    fleet = await createGatewayFleet(admin, { cidr: "10.27.0.0/24", underlay: underlay.slice(LAPTOPS.length) });
    await createPolicy(admin, fleet.networkId, LAN, fleet.gatewayNodes);
    const lanHost = await hosts.g2.addStandInDestination(`${LAN_HOST}/24`);
    listeners = await startListeners(lanHost.namespace, [443, 22]);
    const key = await enrolmentKey(admin, fleet.networkId, LAPTOPS.length);
    for (const laptop of LAPTOPS)
      laptops[laptop] = await enrolTagged(admin, wgo(laptop), { name: laptop, enrolmentKey: key, tags: [`tag:${laptop}`] });
    await putAccessPolicy(
      admin,
      fleet.networkId,
      [
        { action: "allow", src: ["tag:dev"], dst: [LAN], ports: ["*"] },
        { action: "deny", src: ["tag:dev"], dst: [LAN], ports: ["tcp:22"], description: "carved out of rule 0" },
        // ops may reach part of the LAN, so the route is in its config: its other packets reach the first hop.
        { action: "allow", src: ["tag:ops"], dst: [LAN], ports: ["tcp:443"] },
      ],
      [
        { src: "tag:dev", dst: LAN_HOST, port: "icmp", expect: "allow" },
        { src: "tag:dev", dst: LAN_HOST, port: "tcp:22", expect: "deny" },
        { src: "tag:ops", dst: LAN_HOST, port: "icmp", expect: "deny" },
      ],
    );
    await enterPolicyMode(admin, fleet.networkId);
    for (const [index, name] of GATEWAYS.entries()) {
      const stateDir = join(scratch, name);
      const argv = [
        "--api",
        server.baseUrl,
        "--json",
        "gateway",
        "enrol",
        "--token",
        fleet.tokens[index]!,
        "--name",
        name,
        "--state-dir",
        stateDir,
      ];
      const enrolled = await run(wgoArgv(argv), { env: wgoEnv });
      expect(enrolled.code, enrolled.stderr).toBe(0);
      agents[name] = startAgent(stateDir, hosts[name].namespace);
    }
    // 60 s: two agents enrol, make keys and apply on a loaded machine; the gateway-agent e2e needs about 10.
    await waitFor("both gateways to apply the current revision", () => gatewaysInSync(), { timeoutMs: 60_000, details: agentOutput });
    for (const laptop of LAPTOPS) {
      const iface = `c${laptop[0]}${suffix}`;
      await wgo(laptop)(["config", "--name", laptop]); // the policy-mode config, not the one held since enrolment
      await wgo(laptop)(["up", "--name", laptop, "--netns", hosts[laptop].namespace, "--interface", iface, "--method", "setconf"]);
    }
  });

  afterAll(async () => {
    await listeners?.stop();
    for (const agent of Object.values(agents)) await agent?.stop();
    await killLabProcesses(lab);
    await lab?.cleanup();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("tag:dev reaches the LAN behind G1 → G2 (ping and tcp:443), accepted at G1 by its rule", async () => {
    const before = (await hopCounters(0)).get("forward:rules.0") ?? 0;
    const reached = await hosts.dev.pingUntilReply(LAN_HOST, 20_000);
    expect(reached, reached ? "" : `${await describeLab(lab)}\n${agentOutput()}`).toBe(true);
    expect(await tcpOpens(hosts.dev.namespace, LAN_HOST, 443)).toBe(true);
    expect((await hopCounters(0)).get("forward:rules.0")).toBeGreaterThan(before);
  });

  it("the deny carved out of dev's allow holds: tcp:22 is dropped at G1 by that rule", async () => {
    const before = (await hopCounters(0)).get("forward:rules.1") ?? 0;
    expect(await tcpAttempt(hosts.dev.namespace, LAN_HOST, 22)).toBe("timeout");
    expect((await hopCounters(0)).get("forward:rules.1")).toBeGreaterThan(before);
  });

  it("tag:ops reaches only what it may (tcp:443); its ping is dropped at the first hop, and G2 never sees it", async () => {
    expect(await tcpOpens(hosts.ops.namespace, LAN_HOST, 443)).toBe(true);
    const [g1Before, g2Before] = [await hopCounters(0), await hopCounters(1)];
    expect(await hosts.ops.ping(LAN_HOST, 3)).toBe(false);
    const [g1After, g2After] = [await hopCounters(0), await hopCounters(1)];
    const dropped = "forward:no rule allows it";
    expect(g1After.get(dropped), "G1 dropped ops's echo requests").toBeGreaterThanOrEqual((g1Before.get(dropped) ?? 0) + 3);
    expect(g2After.get(dropped) ?? 0, "none reached G2 to be dropped there").toBe(g2Before.get(dropped) ?? 0);
    expect(g2After.get("forward:rules.2") ?? 0, "nor accepted there").toBe(g2Before.get("forward:rules.2") ?? 0);
  });

  it("leaves no namespace or process behind", async () => {
    await listeners?.stop();
    for (const laptop of LAPTOPS) expect((await wgo(laptop)(["down", "--name", laptop])).json[0].action).toBe("removed");
    for (const agent of Object.values(agents)) await agent?.stop();
    await killLabProcesses(lab);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
  });

  /** No gateway node lags behind, or has not reported, the network's current routing revision. */
  const gatewaysInSync = () => gatewaysReportCurrent(admin, fleet.networkId, fleet.gatewayNodes);
});
