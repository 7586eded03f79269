// Issue 47: wgo from the control plane itself. A bare machine (a namespace with Node and the system's tools, no
// checkout of this repository) runs `curl -fsSL <api>/api/v1/install.sh | sh` against the running Worker, gets
// /usr/local-style lib/wgo and bin/wgo (under a scratch prefix), joins a network with the installed wgo and
// pings a peer. Its Node is Debian's Node 18, the oldest wgo supports, when apt can fetch it.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byId, expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { run } from "../support/command.ts";
import { cleanupAndFindLeftovers, describeLab, killLabProcesses } from "../support/lab-leftovers.ts";
import { canRunDataPlane, createLab, type Host, type Lab } from "../support/netns.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { type EdgeProxy, startEdgeProxy } from "../nat/edge-proxy.ts";
import { debianNode18 } from "./debian-node18.ts";
import { wgoMachine } from "./wgo-process.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the install-from-worker e2e: ${dataPlane.reason} !!!\n`);
const node18 = dataPlane.ok ? debianNode18() : { reason: "no data plane" };
if ("reason" in node18) console.warn(`\n!!! install-from-worker runs on this machine's Node, not Node 18: ${node18.reason} !!!\n`);

const suffix = randomBytes(2).toString("hex");

describe.skipIf(!dataPlane.ok)("a bare machine installs wgo from the running Worker and joins", () => {
  let server: WorkerServer;
  let admin: TypedApiClient;
  let lab: Lab;
  let bare: Host;
  let peer: Host;
  let edge: EdgeProxy;
  const scratch = mkdtempSync(join(tmpdir(), "wgo-install-"));
  const prefix = join(scratch, "prefix");
  const nodeDir = "bin" in node18 ? node18.bin : join(process.execPath, "..");
  /** A shell on the bare machine: its PATH has Node and the system's tools, and nothing of this checkout. */
  const onBare = (command: string) =>
    run(
      [
        "ip",
        "netns",
        "exec",
        bare.namespace,
        "env",
        "-i",
        `PATH=${nodeDir}:/usr/sbin:/usr/bin:/sbin:/bin`,
        `HOME=${scratch}`,
        "sh",
        "-c",
        command,
      ],
      {
        timeoutMs: 120_000,
      },
    );
  let peerAddress = "";
  let key = "";

  beforeAll(async () => {
    server = await startWorker();
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    lab = createLab("inst");
    [bare, peer] = [await lab.addHost("bare"), await lab.addHost("peer")];
    const apiHost = await lab.addHost("api");
    const [, peerUnderlay, apiUnderlay] = await lab.connect([bare, peer, apiHost], "10.252.48.0/24");
    edge = await startEdgeProxy(apiHost, apiUnderlay!, server.baseUrl);
    const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: `inst-${suffix}` } }), 201, "group");
    const network = expectAnswer(
      await admin.POST("/api/v1/networks", { body: { groupId: group.id, name: "office", cidr: "10.73.0.0/24" } }),
      201,
      "network",
    );
    key = expectAnswer(
      await admin.POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "machines", usageLimit: 2 } }),
      201,
      "key",
    ).key;
    // The peer is enrolled with this checkout's wgo, and dialled at its underlay address.
    const [enrolled] = (await wgoMachine(server.baseUrl, join(scratch, "peer"))(["enrol", "--name", "peer", "--enrolment-key", key])).json;
    expectAnswer(
      await admin.PATCH("/api/v1/nodes/{id}", { ...byId(enrolled.nodeId), body: { endpoint: `${peerUnderlay}:51820`, listenPort: 51820 } }),
      200,
      "endpoint",
    );
    peerAddress = String(enrolled.address).split("/")[0]!;
  });

  afterAll(async () => {
    await edge?.stop().catch(() => {});
    await killLabProcesses(lab);
    await lab?.cleanup();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("installs with `curl -fsSL <api>/api/v1/install.sh | sh`: lib/wgo and the bin/wgo launcher", async () => {
    const installed = await onBare(`curl -fsSL ${edge.url}/api/v1/install.sh | WGO_PREFIX=${prefix} sh`);
    expect(installed.code, `${installed.stdout}${installed.stderr}`).toBe(0);
    expect(installed.stdout).toContain(`wgo installed: ${prefix}/bin/wgo (${prefix}/lib/wgo)`);
    expect(existsSync(join(prefix, "lib/wgo/cli/wgo.mjs"))).toBe(true);
    const version = await onBare(`${prefix}/bin/wgo --json --api ${edge.url} version; node --version`);
    expect(version.code, version.stderr).toBe(0);
    const [answer, nodeVersion] = version.stdout.trim().split("\n");
    expect(JSON.parse(answer!)).toMatchObject({ server: "0.1.0", serverWgo: "0.1.0", newer: false });
    console.log(`the bare machine's Node: ${nodeVersion}`);
    if ("version" in node18) expect(nodeVersion).toBe(node18.version);
    // Run again it replaces the installed copy in place.
    expect((await onBare(`curl -fsSL ${edge.url}/api/v1/install.sh | WGO_PREFIX=${prefix} sh`)).code).toBe(0);
  });

  it("the installed wgo joins the network and pings a peer", async () => {
    const home = join(scratch, "bare-home");
    const up = await onBare(
      `WGO_HOME=${home} WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD=1 ${prefix}/bin/wgo --json up --api ${edge.url} --network office --enrolment-key ${key} --name bare --interface ib${suffix} --method setconf`,
    );
    expect(up.code, `${up.stdout}${up.stderr}`).toBe(0);
    expect(JSON.parse(up.stdout.trim().split("\n").at(-1)!)).toMatchObject({ name: "bare", networkName: "office", action: "created" });
    const peerWgo = wgoMachine(server.baseUrl, join(scratch, "peer"));
    await peerWgo(["config", "--name", "peer"]);
    await peerWgo(["up", "--name", "peer", "--netns", peer.namespace, "--interface", `ip${suffix}`, "--method", "setconf"]);
    const reached = await bare.pingUntilReply(peerAddress);
    expect(reached, reached ? "" : await describeLab(lab)).toBe(true);
    await onBare(`WGO_HOME=${home} ${prefix}/bin/wgo down --name bare`);
    await peerWgo(["down", "--name", "peer"]);
    await edge.stop();
    expect(await cleanupAndFindLeftovers(lab)).toEqual({ namespaces: [], processes: [] });
  });
});
