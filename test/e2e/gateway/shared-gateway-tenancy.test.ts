// Issue 24 item 1's proof: two tenants (two groups, each with its network) whose gateway nodes run on ONE
// inventory gateway, run by one `wgo gateway run`. Each tenant's device reaches its own gateway, its own LAN
// behind it and its own DNS zone; with policies pointed at the other tenant (its overlay CIDR, its LAN), no
// ping and no DNS query crosses, in either direction: each network lives in its own routing domain on the host.
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byId, expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { check, run, waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, describeLab, killLabProcesses } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, labNamespaces, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { wgoMachine } from "../wgo/wgo-process.ts";
import { startAgent, wgoArgv, wgoEnv, type AgentProcess } from "./agent-process.ts";
import { createTenant, type Tenant, tryCrossPolicy } from "./tenant-network.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the shared gateway tenancy e2e: ${dataPlane.reason} !!!\n`);

const TENANTS = ["a", "b"] as const;
type Name = (typeof TENANTS)[number];
const DEVICE_IF = { a: `wa${randomBytes(2).toString("hex")}`, b: `wb${randomBytes(2).toString("hex")}` };

describe.skipIf(!dataPlane.ok)("two tenants on one gateway host, one `wgo gateway run`", () => {
  let server: WorkerServer;
  let admin: TypedApiClient;
  let lab: Lab;
  let hosts: Record<Name | "g", Host>;
  const tenants = {} as Record<Name, Tenant>;
  const deviceAddress = {} as Record<Name, string>;
  let agent: AgentProcess | undefined;
  const scratch = mkdtempSync(join(tmpdir(), "wgo-tenancy-"));
  const stateDir = join(scratch, "gateway");
  const device = (name: Name) => wgoMachine(server.baseUrl, join(scratch, name));
  const other = (name: Name): Name => (name === "a" ? "b" : "a");
  const details = async () => `${await describeLab(lab)}\n## agent\n${agent?.output() ?? "(not started)"}`;

  beforeAll(async () => {
    server = await startWorker();
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    lab = createLab("tenancy");
    hosts = { a: await lab.addHost("a"), b: await lab.addHost("b"), g: await lab.addHost("g") };
    const [, , gUnderlay] = await lab.connect([hosts.a, hosts.b, hosts.g], "10.250.64.0/24");
    const region = expectAnswer(await admin.POST("/api/v1/regions", { body: { name: "tenancy-lab" } }), 201, "region");
    const gateway = expectAnswer(await admin.POST("/api/v1/gateways", { body: { regionId: region.id, name: "shared" } }), 201, "gateway");
    for (const [index, name] of TENANTS.entries()) {
      tenants[name] = await createTenant(admin, {
        name,
        cidr: `10.7${5 + index}.0.0/24`,
        lan: `192.168.7${5 + index}.0/24`,
        gatewayId: gateway.id,
        endpoint: `${gUnderlay}:${51820 + index}`,
        listenPort: 51820 + index,
      });
      // Each tenant's LAN host sits behind the shared gateway machine.
      await hosts.g.addStandInDestination(`${tenants[name].lanHost}/24`);
    }
    const token = expectAnswer(
      await admin.POST("/api/v1/agents/enrolment-tokens", { body: { kind: "gateway-daemon", gatewayId: gateway.id } }),
      201,
      "enrolment token",
    );
    const enrolled = await run(wgoArgv(["--api", server.baseUrl, "gateway", "enrol", "--token", token.token, "--state-dir", stateDir]), {
      env: wgoEnv,
    });
    expect(enrolled.code, enrolled.stderr).toBe(0);
    agent = startAgent(stateDir, hosts.g.namespace);
  });

  afterAll(async () => {
    await agent?.stop();
    await killLabProcesses(lab);
    await lab?.cleanup();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("the one agent sets up both tenants' gateway nodes, each in its own network namespace", async () => {
    await waitFor("both tenants' gateways to be keyed, serve DNS and be in sync", () => allInSync(), {
      timeoutMs: 60_000,
      details: () => agent!.output(),
    });
    for (const name of TENANTS) {
      const wgo = device(name);
      await wgo(["enrol", "--name", `dev-${name}`, "--enrolment-key", tenants[name].enrolmentKey]);
      await wgo(["up", "--name", `dev-${name}`, "--netns", hosts[name].namespace, "--interface", DEVICE_IF[name], "--method", "setconf"]);
      const shown = JSON.parse(await check(["ip", "-n", hosts[name].namespace, "-j", "address", "show", "dev", DEVICE_IF[name]]));
      deviceAddress[name] = shown[0].addr_info.find((info: { family: string }) => info.family === "inet").local;
    }
    const status = await run(wgoArgv(["--json", "gateway", "status", "--state-dir", stateDir]), { env: wgoEnv });
    expect(status.code, status.stderr).toBe(0);
    const nodes = JSON.parse(status.stdout).nodes as Array<{ netns: string; up: boolean; dnsServer: { running: boolean } }>;
    expect(nodes).toHaveLength(2);
    expect(nodes.every((node) => node.up && node.dnsServer?.running)).toBe(true);
    expect(new Set(nodes.map((node) => node.netns)).size, "two routing domains").toBe(2);
    expect(nodes.every((node) => node.netns.startsWith(`${hosts.g.namespace}-n`))).toBe(true);
  });

  it("each tenant reaches its own gateway, its own LAN behind it, and its own DNS zone", async () => {
    for (const name of TENANTS) await expectOwnPathWorks(name);
  });

  it("with policies aimed at the other tenant, no ping and no DNS query crosses, in either direction", async () => {
    const accepted: string[] = [];
    for (const name of TENANTS) {
      const them = tenants[other(name)];
      // The other tenant's overlay (its gateway's address, DNS server and device) and its LAN.
      if (await tryCrossPolicy(admin, tenants[name], "their-overlay", them.cidr)) accepted.push(`${name} → ${them.cidr}`);
      if (await tryCrossPolicy(admin, tenants[name], "their-lan", them.lan)) accepted.push(`${name} → ${them.lan}`);
    }
    console.log(`shared gateway tenancy: cross-tenant policies the API accepted: ${accepted.join(", ") || "none"}`);
    await waitFor("both gateways to apply the cross policies", () => allInSync(), { timeoutMs: 60_000, details: () => agent!.output() });
    for (const name of TENANTS) await device(name)(["heartbeat", "--name", `dev-${name}`, "--once", "--apply"]);

    for (const name of TENANTS) {
      const me = hosts[name];
      const them = tenants[other(name)];
      const crossed: string[] = [];
      for (const [what, target] of [
        ["their gateway's overlay address", them.gatewayAddress],
        ["their LAN host", them.lanHost],
        ["their device", deviceAddress[other(name)]],
      ] as const) {
        if (await me.ping(target, 3)) crossed.push(`${what} ${target}`);
      }
      const dig = await me.run(["dig", "+time=1", "+tries=2", "+short", `@${them.gatewayAddress}`, `app.${them.domain}`, "A"]);
      if (dig.stdout.includes(them.lanHost))
        crossed.push(`DNS: app.${them.domain} from ${them.gatewayAddress} answered ${dig.stdout.trim()}`);
      expect(crossed, `tenant ${name} reached the other tenant\n${await details()}`).toEqual([]);
    }
    // The LAN a tenant held first stays its own, and everything else of its own chain too.
    for (const name of TENANTS) await expectOwnPathWorks(name);
  });

  it("`wgo gateway down` removes the namespaces, veths and the host's table; nothing is left behind", async () => {
    expect(await agent!.stop()).toBe(0);
    const down = await run(wgoArgv(["--json", "gateway", "down", "--state-dir", stateDir, "--netns", hosts.g.namespace]), { env: wgoEnv });
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout).namespaces).toHaveLength(2);
    const beside = (await labNamespaces(lab.name)).filter((ns) => ns.startsWith(`${hosts.g.namespace}-n`));
    expect(beside).toEqual([]);
    expect(await check(["ip", "-n", hosts.g.namespace, "-br", "link"])).not.toMatch(/wgo/);
    expect((await run(["ip", "netns", "exec", hosts.g.namespace, "nft", "list", "table", "inet", "wgo_gateway"])).code).not.toBe(0);
    await killLabProcesses(lab);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
  });

  async function expectOwnPathWorks(name: Name) {
    const me = hosts[name];
    const mine = tenants[name];
    const reached = await me.pingUntilReply(mine.gatewayAddress, 20_000);
    expect(reached, `tenant ${name} → its gateway ${mine.gatewayAddress}\n${await details()}`).toBe(true);
    expect(await me.pingUntilReply(mine.lanHost, 20_000), `tenant ${name} → its LAN ${mine.lanHost}\n${await details()}`).toBe(true);
    const dig = await me.run(["dig", "+time=2", "+tries=3", "+short", `@${mine.gatewayAddress}`, `app.${mine.domain}`, "A"]);
    expect(dig.stdout.trim(), dig.stderr).toBe(mine.lanHost);
  }

  /** Both networks' gateway nodes have their agent's key, serve DNS and run the current revisions. */
  async function allInSync(): Promise<boolean> {
    for (const name of TENANTS) {
      const node = expectAnswer(await admin.GET("/api/v1/nodes/{id}", byId(tenants[name].gatewayNodeId)), 200, "node");
      if (node.publicKey === null || !node.servesDns) return false;
      const status = expectAnswer(
        await admin.GET("/api/v1/networks/{id}/runtime-status", byId(tenants[name].networkId)),
        200,
        "runtime status",
      );
      const behind = new Set([...status.routing.lagging, ...status.routing.unreported]);
      if (!status.dns.inSync || behind.has(tenants[name].gatewayNodeId)) return false;
    }
    return true;
  }
});
