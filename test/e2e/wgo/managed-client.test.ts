// The managed-client flow of issue 5, end to end with the real CLI: two machines (network namespaces on
// one underlay), A onboarded with the one command `wgo up --network <name>` (issue 17), B enrolled headless
// with a key, bring their tunnels up, ping across the overlay, report heartbeats, and
// follow a routing change with `heartbeat --apply`. wgo runs in the root namespace (where the Worker on
// 127.0.0.1 is reachable) and applies each interface inside its machine's namespace with --netns.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, run } from "../support/command.ts";
import { cleanupAndFindLeftovers, describeLab } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { byId } from "../support/api-client.ts";
import { expectAnswer, makeGateway, seedNetwork, type Seeded } from "./control-plane.ts";
import { wgoMachine, type Wgo } from "./wgo-process.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING wgo end-to-end test: ${dataPlane.reason} !!!\n`);

const DESTINATION = "192.168.77.10";
const suffix = randomBytes(2).toString("hex");
// wireguard-go's sockets share /run/wireguard across namespaces: names unique per machine and per run.
const IF_A = `wa${suffix}`;
const IF_B = `wb${suffix}`;

describe.skipIf(!dataPlane.ok)("wgo against a real Worker and wireguard-go", () => {
  let server: WorkerServer;
  let seeded: Seeded;
  let lab: Lab;
  let a: Host, b: Host;
  let underlayB: string;
  const homes = { a: mkdtempSync(join(tmpdir(), "wgo-a-")), b: mkdtempSync(join(tmpdir(), "wgo-b-")) };
  let wgoA: Wgo, wgoB: Wgo;
  const enrolled: Record<"a" | "b", { deviceId: string; nodeId: string; address: string; publicKey: string }> = {} as never;

  beforeAll(async () => {
    server = await startWorker();
    seeded = await seedNetwork(server.baseUrl, server.admin, "10.77.0.0/24");
    wgoA = wgoMachine(server.baseUrl, homes.a);
    wgoB = wgoMachine(server.baseUrl, homes.b);
    lab = createLab("wgocli");
    [a, b] = [await lab.addHost("a"), await lab.addHost("b")];
    [, underlayB] = (await lab.connect([a, b], "10.251.1.0/24")) as [string, string];
  });
  afterAll(async () => {
    // Safety net for a failed test: the daemons wgo started live in the lab's namespaces; stop those by id.
    for (const namespace of lab?.namespaces() ?? []) {
      const pids = (await run(["ip", "netns", "pids", namespace])).stdout.split("\n").filter(Boolean);
      for (const pid of pids) await run(["kill", pid]);
    }
    await lab?.cleanup();
    await server?.stop();
    for (const home of Object.values(homes)) rmSync(home, { recursive: true, force: true });
  });

  it("enrols B headless with an enrolment key and gives it an endpoint", async () => {
    const [deviceB] = (await wgoB(["enrol", "--name", "dev-b", "--enrolment-key", seeded.enrolmentKey])).json;
    enrolled.b = deviceB;
    expect(deviceB.networkId).toBe(seeded.networkId);
    // B is reachable on its underlay address; A finds it through the Endpoint in its config.
    expectAnswer(
      await seeded.admin.PATCH("/api/v1/nodes/{id}", {
        ...byId(enrolled.b.nodeId),
        body: { endpoint: `${underlayB}:51820`, listenPort: 51820 },
      }),
      200,
      "set endpoint",
    );
  });

  it("onboards A in one command (`wgo up --network <name> --password-stdin`) and pings across the overlay", async () => {
    // Sign in, find the network by its name, enrol with the session, fetch the config, bring the tunnel up.
    const onboardA = [
      "up",
      "--network",
      "cli-e2e",
      "--name",
      "dev-a",
      "--email",
      seeded.user.email,
      "--password-stdin",
      "--netns",
      a.namespace,
      "--interface",
      IF_A,
      "--method",
      "setconf",
    ];
    const [upA] = (await wgoA(onboardA, { input: `${seeded.user.password}\n` })).json;
    expect(upA).toMatchObject({
      signedIn: "login",
      enrolled: "new",
      networkId: seeded.networkId,
      networkName: "cli-e2e",
      action: "created",
      method: "setconf",
      interface: IF_A,
    });
    enrolled.a = { deviceId: upA.deviceId, nodeId: upA.nodeId, address: upA.address, publicKey: upA.publicKey };
    expect(statSync(join(homes.a, "session.json")).mode & 0o777).toBe(0o600);

    for (const [home, name, device] of [
      [homes.a, "dev-a", enrolled.a],
      [homes.b, "dev-b", enrolled.b],
    ] as const) {
      const keyFile = join(home, "devices", `${name}.key`);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      // The server holds exactly the public half of the key that stayed on the machine.
      const publicKey = (await check(["wg", "pubkey"], { input: readFileSync(keyFile, "utf8") })).trim();
      const node = expectAnswer(await seeded.admin.GET("/api/v1/nodes/{id}", byId(device.nodeId)), 200, "get node");
      expect(node.publicKey).toBe(publicKey);
      expect(node.deviceId).toBe(device.deviceId);
    }
    const owners = expectAnswer(
      await seeded.admin.GET("/api/v1/devices", { params: { query: { networkId: seeded.networkId } } }),
      200,
      "list devices",
    );
    expect(owners.items.map((d: any) => [d.name, d.userId]).sort()).toEqual([
      ["dev-a", seeded.user.id],
      ["dev-b", null],
    ]);

    // B's config now has A as a peer.
    await wgoB(["config", "--name", "dev-b"]);
    const upB = (await wgoB(["up", "--name", "dev-b", "--netns", b.namespace, "--interface", IF_B, "--method", "setconf"])).json[0];
    expect(upB.action).toBe("created");

    const overlayA = enrolled.a.address.split("/")[0]!;
    const overlayB = enrolled.b.address.split("/")[0]!;
    const reached = await a.pingUntilReply(overlayB);
    expect(reached, reached ? "" : await describeLab(lab)).toBe(true);
    expect(await b.ping(overlayA, 3)).toBe(true);

    // The same command again: no second enrolment and no sign-in, the config re-applied (syncconf).
    const [again] = (await wgoA(onboardA, { input: `${seeded.user.password}\n` })).json;
    expect(again).toMatchObject({ enrolled: "existing", signedIn: null, deviceId: enrolled.a.deviceId, action: "synced" });
    expect((await wgoA(["up", "--name", "dev-a"])).json[0].action).toBe("synced");
    expect(await a.ping(overlayB, 2)).toBe(true);
  });

  it("heartbeats put the tunnel and both devices' revisions into the API", async () => {
    const [beatA] = (await wgoA(["heartbeat", "--name", "dev-a", "--once"])).json;
    const [beatB] = (await wgoB(["heartbeat", "--name", "dev-b", "--once"])).json;
    expect(beatA).toMatchObject({ configChanged: false, peers: 1 });
    expect(beatB).toMatchObject({ configChanged: false, peers: 1 });

    const tunnels = expectAnswer(
      await seeded.admin.GET("/api/v1/tunnels", { params: { query: { networkId: seeded.networkId } } }),
      200,
      "tunnels",
    ).items;
    for (const [from, to] of [
      [enrolled.a, enrolled.b],
      [enrolled.b, enrolled.a],
    ] as const) {
      const tunnel = tunnels.find((t: any) => t.fromNodeId === from.nodeId && t.toNodeId === to.nodeId);
      expect(tunnel, JSON.stringify(tunnels)).toMatchObject({ state: "up", peerPublicKey: to.publicKey });
      expect(tunnel!.rxBytes).toBeGreaterThan(0);
      expect(tunnel!.txBytes).toBeGreaterThan(0);
    }
    const runtime = expectAnswer(
      await seeded.admin.GET("/api/v1/networks/{id}/runtime-status", byId(seeded.networkId)),
      200,
      "runtime status",
    );
    expect(runtime.routing).toMatchObject({ inSync: true, lagging: [], unreported: [], desiredRevision: beatA.desiredRevision });
  });

  it("follows a routing change with `heartbeat --once --apply` and reports itself in sync again", async () => {
    await makeGateway(seeded.admin, enrolled.b.nodeId);
    await b.addStandInDestination(`${DESTINATION}/24`);
    expectAnswer(
      await seeded.admin.POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(seeded.networkId),
        body: { name: "lab", type: "via_gateway", destinationCidr: "192.168.77.0/24", gatewayPath: [enrolled.b.nodeId] },
      }),
      201,
      "create policy",
    );
    expect(await a.ping(DESTINATION, 1), "no route before the change is applied").toBe(false);

    const applyA = await wgoA(["heartbeat", "--name", "dev-a", "--once", "--apply"]);
    const applyB = await wgoB(["heartbeat", "--name", "dev-b", "--once", "--apply"]);
    const [beatA] = applyA.json;
    const desired = beatA.desiredRevision;
    // The change travels as a delta and is applied with `wg set` (issue 14), not a whole config and syncconf.
    expect(beatA).toMatchObject({ configChanged: true, applied: { revision: desired, action: "delta" } });
    expect(beatA.fetched).toMatchObject([{ answer: "delta" }]);
    expect(beatA.appliedRevision).toBeLessThan(desired);
    expect(applyB.json[0]).toMatchObject({ configChanged: true, applied: { revision: desired } });

    // The file, the interface and the routes hold the new revision.
    expect(readFileSync(join(homes.a, "devices", "dev-a.conf"), "utf8")).toContain(`routing revision ${desired}`);
    // Not a.exec: the harness mounts its own /run/wireguard there, and wgo's daemons use the real one.
    expect(await check(["ip", "netns", "exec", a.namespace, "wg", "show", IF_A, "allowed-ips"])).toContain("192.168.77.0/24");
    expect(await a.exec(["ip", "route", "show", "dev", IF_A])).toContain("192.168.77.0/24");
    expect((await b.exec(["sysctl", "-n", "net.ipv4.ip_forward"])).trim()).toBe("1"); // B is now a gateway
    const reached = await a.pingUntilReply(DESTINATION);
    expect(reached, reached ? "" : await describeLab(lab)).toBe(true);

    const [againA] = (await wgoA(["heartbeat", "--name", "dev-a", "--once"])).json;
    await wgoB(["heartbeat", "--name", "dev-b", "--once"]);
    expect(againA).toMatchObject({ appliedRevision: desired, desiredRevision: desired, configChanged: false });
    const runtime = expectAnswer(
      await seeded.admin.GET("/api/v1/networks/{id}/runtime-status", byId(seeded.networkId)),
      200,
      "runtime status",
    );
    expect(runtime.routing).toMatchObject({ desiredRevision: desired, appliedRevision: desired, inSync: true, lagging: [] });
    const [status] = (await wgoA(["status", "--name", "dev-a"])).json;
    expect(status).toMatchObject({ inSync: true, desiredRevision: desired, interface: { name: IF_A, up: true } });
  });

  it("takes both interfaces down, stops wireguard-go, and leaves nothing behind", async () => {
    expect((await wgoA(["down", "--name", "dev-a"])).json[0].action).toBe("removed");
    expect((await wgoB(["down", "--name", "dev-b"])).json[0].action).toBe("removed");
    expect((await a.run(["ip", "link", "show", IF_A])).code).not.toBe(0);
    expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
  });
});
