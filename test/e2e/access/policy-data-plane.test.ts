// Issue 26's proof between nodes (docs/access.md), on real wireguard-go and nftables, with nodes configured
// by `wgo` only: in policy mode a tag:dev laptop reaches tag:web on tcp:443 but not tcp:22 and cannot ping
// it; tag:ops reaches both; an untagged machine reaches nothing; a deny carved out of ops's broad allow
// holds; a rule with expiresAt stops working at it with no further API write. (The chain: policy-chain.test.ts.)
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, describeLab, killLabProcesses } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { wgoMachine, type Wgo } from "../wgo/wgo-process.ts";
import { type AccessRule, type Enrolled, enrolTagged, enterPolicyMode, putAccessPolicy, seedAccessNetwork } from "./access-lab.ts";
import { describeFilters, filterCounters, type Listeners, startListeners, tcpAttempt, tcpOpens } from "./flows.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the access-policy data-plane e2e: ${dataPlane.reason} !!!\n`);

const MACHINES = ["web", "dev", "ops", "plain"] as const;
type Machine = (typeof MACHINES)[number];
const TAGS: Record<Machine, string[]> = { web: ["tag:web"], dev: ["tag:dev"], ops: ["tag:ops"], plain: [] };
const suffix = randomBytes(2).toString("hex");
// wireguard-go's sockets share /run/wireguard across namespaces: names unique per machine and per run.
const ifaceOf = (machine: Machine) => `a${machine[0]}${suffix}`;

const RULES: AccessRule[] = [
  { action: "allow", src: ["tag:dev"], dst: ["tag:web"], ports: ["tcp:443"] },
  { action: "allow", src: ["tag:ops"], dst: ["tag:web"], ports: ["*"] },
  { action: "deny", src: ["tag:ops"], dst: ["tag:web"], ports: ["tcp:8080"], description: "carved out of rule 1" },
];

describe.skipIf(!dataPlane.ok)("access policy between nodes, on the data plane", () => {
  let server: WorkerServer;
  let admin: TypedApiClient;
  let lab: Lab;
  let networkId: string;
  let listeners: Listeners | undefined;
  const hosts = {} as Record<Machine, Host>;
  const nodes = {} as Record<Machine, Enrolled>;
  const scratch = mkdtempSync(join(tmpdir(), "wgo-access-"));
  const wgo = (machine: Machine): Wgo => wgoMachine(server.baseUrl, join(scratch, machine));
  const attempt = (from: Machine, port: number) => tcpAttempt(hosts[from].namespace, nodes.web.address, port);
  const webCounters = () => filterCounters(hosts.web.namespace, `wgo_access_${ifaceOf("web")}`);
  const heartbeat = async (machine: Machine) => (await wgo(machine)(["heartbeat", "--name", machine, "--once", "--apply"])).json[0];

  beforeAll(async () => {
    server = await startWorker();
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    lab = createLab("acpol");
    for (const machine of MACHINES) hosts[machine] = await lab.addHost(machine);
    const underlay = await lab.connect(Object.values(hosts), "10.252.26.0/24");
    const seeded = await seedAccessNetwork(admin, "access-e2e", "10.26.0.0/24", MACHINES.length);
    networkId = seeded.networkId;
    for (const [index, machine] of MACHINES.entries()) {
      // Only web is dialled (the laptops start every flow); it alone needs an endpoint.
      nodes[machine] = await enrolTagged(admin, wgo(machine), {
        name: machine,
        enrolmentKey: seeded.enrolmentKey,
        tags: TAGS[machine],
        endpoint: machine === "web" ? underlay[index] : undefined,
      });
    }
    await putAccessPolicy(admin, networkId, RULES, [
      { src: "tag:dev", dst: "tag:web", port: "tcp:443", expect: "allow" },
      { src: "tag:dev", dst: "tag:web", port: "tcp:22", expect: "deny" },
      { src: "tag:ops", dst: "tag:web", port: "tcp:8080", expect: "deny" },
    ]);
    await enterPolicyMode(admin, networkId);
    for (const machine of MACHINES) {
      // `wgo up --name` applies the config held since enrolment (open mode then): fetch the policy-mode one first.
      await wgo(machine)(["config", "--name", machine]);
      await wgo(machine)([
        "up",
        "--name",
        machine,
        "--netns",
        hosts[machine].namespace,
        "--interface",
        ifaceOf(machine),
        "--method",
        "setconf",
      ]);
    }
    listeners = await startListeners(hosts.web.namespace, [443, 22, 8080, 8443]);
  });

  afterAll(async () => {
    await listeners?.stop();
    await killLabProcesses(lab);
    await lab?.cleanup();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("tag:dev reaches tag:web on tcp:443, not on tcp:22 (dropped by web's filter, counted), and cannot ping it", async () => {
    const opened = await tcpOpens(hosts.dev.namespace, nodes.web.address, 443);
    expect(opened, opened ? "" : await describeLab(lab)).toBe(true);
    const before = (await webCounters()).get("input:no rule allows it") ?? 0;
    expect(await attempt("dev", 22), "no RST, no answer: the SYN was dropped").toBe("timeout");
    expect(await hosts.dev.ping(nodes.web.address, 3)).toBe(false);
    expect((await webCounters()).get("input:no rule allows it")).toBeGreaterThan(before);
  });

  it("tag:ops reaches tag:web on tcp:443 and tcp:22 and pings it; the deny carved out of its allow (tcp:8080) holds", async () => {
    const opened = await tcpOpens(hosts.ops.namespace, nodes.web.address, 443);
    expect(opened, opened ? "" : await describeFilters([hosts.web.namespace, hosts.ops.namespace])).toBe(true);
    expect(await attempt("ops", 22)).toBe("open");
    expect(await hosts.ops.ping(nodes.web.address, 3)).toBe(true);
    expect(await attempt("ops", 8080)).toBe("timeout");
    // The listener is there: dev's flow above proves web answers, and ops reaches its neighbour port.
    expect(await attempt("ops", 8443)).toBe("open");
  });

  it("an untagged machine reaches nothing: no peer in its config, no flow, no ping", async () => {
    const [status] = (await wgo("plain")(["status", "--name", "plain"])).json;
    expect(status.interface.up).toBe(true);
    for (const port of [443, 22]) expect(await attempt("plain", port)).not.toBe("open");
    expect(await hosts.plain.ping(nodes.web.address, 2)).toBe(false);
  });

  it("a rule with expiresAt stops working at it: the agents pick up the new revision with no API write", async () => {
    // 45 s ahead: the PUT, two `heartbeat --apply` runs and a connection take under 15 s on this loaded machine (3x).
    const expiresAt = Date.now() + 45_000;
    const temporary: AccessRule = {
      action: "allow",
      src: ["tag:dev"],
      dst: ["tag:web"],
      ports: ["tcp:8443"],
      expiresAt: new Date(expiresAt).toISOString(),
    };
    await putAccessPolicy(admin, networkId, [...RULES, temporary]);
    const loaded = await heartbeat("web");
    await heartbeat("dev");
    const opened = await tcpOpens(hosts.dev.namespace, nodes.web.address, 8443, 15_000);
    expect(opened, `the temporary rule works\n${opened ? "" : await describeFilters([hosts.web.namespace])}`).toBe(true);
    expect(Date.now(), "checked before the expiry").toBeLessThan(expiresAt);

    // No write from here on. The writer's alarm moves the revision at expiresAt; web's next heartbeat applies it.
    const held = (beat: { appliedRevision: number; applied?: { revision: number } }) => beat.applied?.revision ?? beat.appliedRevision;
    const withRule = held(loaded);
    await waitFor(
      "web to apply the revision the expiry made",
      async () => held(await heartbeat("web")) > withRule,
      // The expiry plus 30 s: a heartbeat takes a few seconds here, and the alarm fires within one of its time.
      { timeoutMs: expiresAt - Date.now() + 30_000, intervalMs: 1000 },
    );
    expect(Date.now(), "the revision moved at the expiry, not before").toBeGreaterThan(expiresAt);
    expect(await attempt("dev", 8443), "the expired rule no longer admits dev").toBe("timeout");
    expect(await attempt("dev", 443), "the rules in force still do").toBe("open");
  });

  it("takes every interface down and leaves nothing behind", async () => {
    await listeners?.stop();
    for (const machine of MACHINES) expect((await wgo(machine)(["down", "--name", machine])).json[0].action).toBe("removed");
    expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
  });
});
