// Issue 47: one machine in several networks (tailscale #183, netbird #5194, headscale #119), with the real CLI,
// the Worker and wireguard-go. Machine m joins network alpha and then beta with `wgo up --network <name>` (one
// sign-in); each network gives it a device, an interface and a unit of its own. It pings a peer in each;
// `wgo status` lists both; the units `wgo install-service` writes, run as systemd would run them, follow a
// change in each network.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byId, expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { check, OutputTail, waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, describeLab, killLabProcesses } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { wgoEnv } from "../gateway/agent-process.ts";
import { wgoMachine, type Wgo } from "./wgo-process.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the several-networks e2e: ${dataPlane.reason} !!!\n`);

const suffix = randomBytes(2).toString("hex");
const NETWORKS = { alpha: "10.71.0.0/24", beta: "10.72.0.0/24" } as const;
type Net = keyof typeof NETWORKS;

describe.skipIf(!dataPlane.ok)("one machine in two networks", () => {
  let server: WorkerServer;
  let admin: TypedApiClient;
  let lab: Lab;
  let m: Host;
  const peerHosts = {} as Record<Net, Host>;
  const peers = {} as Record<Net, { deviceId: string; address: string; publicKey: string; ifname: string }>;
  const user = { email: `multi-${suffix}@e2e.test`, password: randomBytes(18).toString("base64url") };
  const scratch = mkdtempSync(join(tmpdir(), "wgo-multi-"));
  const home = join(scratch, "m");
  const units = join(scratch, "units");
  const services: Array<{ child: ChildProcess; output: OutputTail }> = [];
  let wgo: Wgo;
  const peerWgo = (net: Net) => wgoMachine(server.baseUrl, join(scratch, `peer-${net}`));
  let devices: Array<{ name: string; networkName: string; interface: { name: string } }> = [];
  const wgShowPeers = async (ifname: string) =>
    (await check(["ip", "netns", "exec", m.namespace, "wg", "show", ifname, "peers"])).split("\n").filter(Boolean);

  beforeAll(async () => {
    server = await startWorker();
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    wgo = wgoMachine(server.baseUrl, home);
    lab = createLab("multi");
    m = await lab.addHost("m");
    peerHosts.alpha = await lab.addHost("pa");
    peerHosts.beta = await lab.addHost("pb");
    const [, underlayA, underlayB] = await lab.connect([m, peerHosts.alpha, peerHosts.beta], "10.252.47.0/24");
    const account = expectAnswer(await admin.POST("/api/v1/users", { body: { ...user, name: "Multi" } }), 201, "user");
    const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: `multi-${suffix}` } }), 201, "group");
    expectAnswer(
      await admin.POST("/api/v1/groups/{id}/members", { ...byId(group.id), body: { userId: account.id, role: "member" } }),
      201,
      "member",
    );
    for (const [net, underlay] of [
      ["alpha", underlayA],
      ["beta", underlayB],
    ] as const) {
      const network = expectAnswer(
        await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: net, cidr: NETWORKS[net] } }),
        201,
        net,
      );
      const key = expectAnswer(
        await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "peer" } }),
        201,
        "key",
      );
      // A peer in each network, dialled at its underlay address, enrolled before m so m's configs carry it.
      const [enrolled] = (await peerWgo(net)(["enrol", "--name", `peer-${net}`, "--enrolment-key", key.key])).json;
      expectAnswer(
        await admin.PATCH("/api/v1/nodes/{id}", { ...byId(enrolled.nodeId), body: { endpoint: `${underlay}:51820`, listenPort: 51820 } }),
        200,
        "endpoint",
      );
      peers[net] = { ...enrolled, address: String(enrolled.address).split("/")[0], ifname: `p${net[0]}${suffix}` };
    }
  });

  afterAll(async () => {
    for (const { child } of services) if (child.exitCode === null) child.kill("SIGTERM");
    await killLabProcesses(lab);
    await lab?.cleanup();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("`wgo up --network alpha`, then `--network beta`: two devices and interfaces; a peer in each answers", async () => {
    const joined = [];
    for (const net of ["alpha", "beta"] as const) {
      const signIn = net === "alpha" ? ["--email", user.email, "--password-stdin"] : [];
      const [result] = (
        await wgo(["up", "--network", net, ...signIn, "--netns", m.namespace, "--method", "setconf"], { input: `${user.password}\n` })
      ).json;
      joined.push(result);
    }
    const [alpha, beta] = joined;
    expect(alpha).toMatchObject({ networkName: "alpha", enrolled: "new", signedIn: "login", action: "created" });
    expect(beta).toMatchObject({ networkName: "beta", enrolled: "new", signedIn: "session", action: "created" });
    expect(beta.name).toBe(`${alpha.name}-beta`);
    expect(beta.interface).not.toBe(alpha.interface);
    // The machine has the same name in both networks.
    for (const device of [alpha, beta]) {
      const node = expectAnswer(await admin.GET("/api/v1/nodes/{id}", byId(device.nodeId)), 200, "node");
      expect(node.name).toBe(alpha.name);
    }
    for (const net of ["alpha", "beta"] as const) {
      await peerWgo(net)(["config", "--name", `peer-${net}`]); // now with m as a peer
      await peerWgo(net)([
        "up",
        "--name",
        `peer-${net}`,
        "--netns",
        peerHosts[net].namespace,
        "--interface",
        peers[net].ifname,
        "--method",
        "setconf",
      ]);
    }
    for (const net of ["alpha", "beta"] as const) {
      const reached = await m.pingUntilReply(peers[net].address);
      expect(reached, `${net}: ${reached ? "" : await describeLab(lab)}`).toBe(true);
    }
    expect(await wgShowPeers(alpha.interface)).toEqual([peers.alpha.publicKey]);
    expect(await wgShowPeers(beta.interface)).toEqual([peers.beta.publicKey]);
  });

  it("`wgo status` lists both devices, each on its own interface", async () => {
    devices = (await wgo(["status"])).json;
    expect(devices.map((d: any) => [d.networkName, d.interface.up])).toEqual([
      ["alpha", true],
      ["beta", true],
    ]);
    expect(devices[0]!.interface.name).not.toBe(devices[1]!.interface.name);
  });

  it("`wgo install-service` writes a unit per device; run as systemd runs them, they follow each network's changes", async () => {
    const written = (await wgo(["install-service", "--no-enable", "--unit-dir", units])).json;
    expect(written.map((unit: { unit: string }) => unit.unit)).toEqual(devices.map((d) => `wgo-device-${d.name}.service`));
    for (const file of readdirSync(units).sort()) {
      const unit = readFileSync(join(units, file), "utf8");
      const environment = Object.fromEntries([...unit.matchAll(/^Environment=(\w+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!]));
      const execStart = /^ExecStart=(.+)$/m.exec(unit)![1]!.split(" ");
      const output = new OutputTail();
      const child = spawn(execStart[0]!, execStart.slice(1), { env: { ...wgoEnv, ...environment }, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout!.on("data", (chunk) => output.append(chunk));
      child.stderr!.on("data", (chunk) => output.append(chunk));
      services.push({ child, output });
    }
    // Both services beat and apply: the revisions the peers' reports moved reach both interfaces.
    const inSync = async () => ((await wgo(["status"])).json as Array<{ inSync: boolean }>).every((d) => d.inSync);
    await waitFor("both devices in sync", inSync, { timeoutMs: 15_000, intervalMs: 500 });
    // A change in each network: its peer's device deleted. Each device's own service takes the peer away.
    for (const [index, net] of (["alpha", "beta"] as const).entries()) {
      const answer = await admin.DELETE("/api/v1/devices/{id}", byId(peers[net].deviceId));
      expect(answer.response.status).toBe(204);
      await waitFor(
        `${net}'s peer to leave ${devices[index]!.interface.name}`,
        async () => (await wgShowPeers(devices[index]!.interface.name)).length === 0,
        {
          timeoutMs: 10_000,
          details: () => services.map((service) => service.output.toString().slice(-1500)).join("\n---\n"),
        },
      );
    }
    for (const { child } of services) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  });

  it("takes both interfaces down and leaves nothing behind", async () => {
    for (const device of devices) expect((await wgo(["down", "--name", device.name])).json[0].action).toBe("removed");
    for (const net of ["alpha", "beta"] as const) await peerWgo(net)(["down", "--name", `peer-${net}`]);
    expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
  });
});
