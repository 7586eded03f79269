// `wgo up`, `status` and `down` on a simulated host: where the interface went is remembered, so the
// later commands need no flags, and status compares the applied revision with the server's.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import { dumpText, enrolLaptop, startDeviceApi } from "./support/device-api.ts";
import { fakeHost, type FakeHost } from "./support/fake-system.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup() {
  const api = await startDeviceApi();
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost();
  const wgo = (args: string[]) => runWgo(["--home", home, "--json", ...args], { createSystem: host.createSystem });
  const device = () => JSON.parse(readFileSync(join(home, "devices", "laptop.json"), "utf8"));
  return { api, home, host, wgo, device };
}

const inNamespace = (host: FakeHost, namespace: string) =>
  host.calls.every((call) => call.slice(0, 4).join(" ") === `ip netns exec ${namespace}`);

describe("wgo up / status / down", () => {
  it("brings the interface up in the namespace, remembers where, and gives the namespace the config's DNS", async () => {
    const { host, wgo, device } = await setup();
    const result = await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7", "--method", "setconf"]);
    expect(result.code).toBe(0);
    expect(result.json[0]).toEqual({
      name: "laptop",
      interface: "wg7",
      netns: "ns1",
      method: "setconf",
      action: "created",
      appliedRevision: 3,
      addresses: ["10.77.0.1/24"],
      routes: [],
      dns: { servers: ["10.77.0.53"], search: [], via: "netns" },
      reported: true,
    });
    expect(result.stderr).toBe("");
    expect(device()).toMatchObject({ interface: "wg7", netns: "ns1", method: "setconf", appliedRevision: 3, configRevision: 3 });
    expect(inNamespace(host, "ns1")).toBe(true);
    expect(host.links.get("wg7")!.conf).toContain("PrivateKey = ");
  });

  it("status: in sync while the revisions match, behind once the server moves, with the peers of `wg show`", async () => {
    const { api, home, host, wgo } = await setup();
    await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
    host.links.get("wg7")!.dump = dumpText(1763719200, 10, 20);
    const [synced] = (await wgo(["status", "--name", "laptop"])).json;
    expect(synced).toMatchObject({
      appliedRevision: 3,
      desiredRevision: 3,
      inSync: true,
      interface: {
        name: "wg7",
        netns: "ns1",
        method: "setconf",
        up: true,
        peers: [{ lastHandshakeAt: "2025-11-21T10:00:00.000Z", rxBytes: 10, txBytes: 20 }],
      },
    });
    const heartbeatsBefore = api.state.heartbeats.length;
    api.state.revision = 4;
    const behind = await runWgo(["--home", home, "status"], { createSystem: host.createSystem }); // human output
    expect(behind.stdout).toContain(
      "revision: applied 3, file 3, server 4: behind: run `wgo config --name laptop` and `wgo up --name laptop`",
    );
    expect(behind.stdout).toContain("interface wg7 in namespace ns1: up (setconf)");
    expect(api.state.heartbeats.length, "status reads without sending a heartbeat").toBe(heartbeatsBefore);
  });

  it("status falls back to the last heartbeat's answer when the server cannot be reached", async () => {
    const { api, wgo } = await setup();
    await wgo(["up", "--name", "laptop"]);
    await wgo(["heartbeat", "--name", "laptop", "--once"]);
    await api.close();
    const result = await wgo(["status", "--name", "laptop"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^note: http:\/\/127\.0\.0\.1:\d+ is unreachable \(.+\): desired revision from the heartbeat of /);
    expect(result.json[0]).toMatchObject({ desiredRevision: 3, inSync: true });
  });

  it("up again after `wgo config` re-applies the new revision with syncconf", async () => {
    const { api, host, wgo, device } = await setup();
    await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
    api.state.revision = 5;
    api.state.extraAllowedIps = ["192.168.77.0/24"];
    await wgo(["config", "--name", "laptop"]);
    const [again] = (await wgo(["up", "--name", "laptop"])).json;
    expect(again).toMatchObject({ action: "synced", appliedRevision: 5, routes: ["192.168.77.0/24"], netns: "ns1" });
    expect(host.wgVerbs).toEqual(["setconf", "syncconf"]);
    expect(device().appliedRevision).toBe(5);
  });

  it("up without a config file fetches one first", async () => {
    const { home, wgo, api } = await setup();
    rmSync(join(home, "devices", "laptop.conf"));
    api.state.revision = 6;
    expect((await wgo(["up", "--name", "laptop"])).json[0]).toMatchObject({ interface: "wg0", netns: null, appliedRevision: 6 });
  });

  it("down removes the remembered interface; a second down says it was not up", async () => {
    const { host, wgo } = await setup();
    await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
    expect((await wgo(["down", "--name", "laptop"])).json[0]).toEqual({
      name: "laptop",
      interface: "wg7",
      netns: "ns1",
      action: "removed",
      dnsRemoved: "netns",
    });
    expect(host.links.size).toBe(0);
    expect((await wgo(["down", "--name", "laptop"])).json[0].action).toBe("absent");
    const [status] = (await wgo(["status", "--name", "laptop"])).json;
    expect(status).toMatchObject({ inSync: false, interface: { up: false, peers: [] } });
  });

  it("a failing host command is exit 1 with that command's error", async () => {
    const { home } = await setup();
    const result = await runWgo(["--home", home, "up", "--name", "laptop", "--method", "setconf"], {
      createSystem: () => ({
        run: async () => ({ code: 1, stdout: "", stderr: "" }),
        check: async () => {
          throw new Error("unused");
        },
      }),
    });
    expect(result.stderr).toMatch(/^error: wireguard-go wg0 did not create the interface: exit 1\n/);
    expect(result.code).toBe(1);
  });
});
