// `wgo heartbeat`: what it reports (from `wg show dump`), how --apply follows configChanged, and the
// loop: it keeps going through transient failures, stops on a lost credential, and exits on SIGTERM.
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { envelope, type FakeRoute } from "./support/fake-api.ts";
import { runWgo, tempHome } from "./support/cli.ts";
import { DEVICE_TOKEN, dumpText, enrolLaptop, GATEWAY, newNetworkState, PEER_KEY, startDeviceApi } from "./support/device-api.ts";
import { fakeHost } from "./support/fake-system.ts";

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

async function setup(routes: Record<string, FakeRoute> = {}, state = newNetworkState()) {
  const api = await startDeviceApi(routes, state);
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost();
  const signals = new EventEmitter();
  const wgo = (args: string[]) => runWgo(["--home", home, "--json", ...args], { createSystem: host.createSystem, signals });
  await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
  host.links.get("wg7")!.dump = dumpText(1763719200, 1234, 5678);
  return { api, home, host, wgo, signals };
}

describe("wgo heartbeat --once", () => {
  it("reports the applied revision and each peer from `wg show dump`, with the device token, as a delta peer report", async () => {
    const { api, wgo } = await setup();
    // `wgo up` reported once at its end: a full report (base null) of the new interface, no traffic yet.
    expect(api.state.heartbeats).toEqual([{ appliedRevision: 3, peerReport: { base: null, changed: [], removed: [], more: false } }]);
    const result = await wgo(["heartbeat", "--name", "laptop", "--once"]);
    expect(result.code).toBe(0);
    const request = api.requests.at(-1)!;
    expect(request).toMatchObject({ path: "/client/devices/dev_1/heartbeat", token: DEVICE_TOKEN });
    // A delta on the seq that up's report got, the handshake in Unix seconds, the endpoint WireGuard holds for the peer.
    expect(request.body).toEqual({
      appliedRevision: 3,
      peerReport: { base: 1, changed: [[PEER_KEY, 1763719200, 1234, 5678, GATEWAY.endpoint]], removed: [], more: false },
    });
    expect(result.json[0]).toEqual({
      name: "laptop",
      interface: "wg7",
      appliedRevision: 3,
      desiredRevision: 3,
      configChanged: false,
      peers: 1,
      reported: { form: "delta", pages: 1, changed: 1, removed: 0, full: false, largestBodyBytes: JSON.stringify(request.body).length },
      applied: null,
    });
    expect(api.state.peerRows).toEqual(new Map([[PEER_KEY, [1763719200, 1234, 5678, GATEWAY.endpoint]]]));
  });

  it("with --apply follows configChanged: fetch what changed, apply it, routes; the next beat reports the new revision", async () => {
    const { api, home, host, wgo } = await setup();
    api.state.revision = 4;
    api.state.extraAllowedIps = ["192.168.77.0/24"];
    const [beat] = (await wgo(["heartbeat", "--name", "laptop", "--once", "--apply"])).json;
    expect(beat).toMatchObject({
      appliedRevision: 3,
      desiredRevision: 4,
      configChanged: true,
      applied: { revision: 4, action: "delta", routes: ["192.168.77.0/24"] },
    });
    expect(host.wgVerbs).toEqual(["setconf"]); // wg set, not syncconf: heartbeat-delta.test.ts
    expect(host.routesOf("wg7")).toEqual(["192.168.77.0/24"]);
    expect(readFileSync(join(home, "devices", "laptop.conf"), "utf8")).toContain("routing revision 4");

    const [next] = (await wgo(["heartbeat", "--name", "laptop", "--once"])).json;
    expect(next).toMatchObject({ appliedRevision: 4, desiredRevision: 4, configChanged: false });
  });

  it("without --apply only reports the change", async () => {
    const { api, host, wgo } = await setup();
    api.state.revision = 4;
    const result = await wgo(["heartbeat", "--name", "laptop", "--once"]);
    expect(result.json[0]).toMatchObject({ configChanged: true, applied: null });
    expect(api.requests.filter((r) => r.path.endsWith("/config"))).toHaveLength(0);
    expect(host.wgVerbs).toEqual(["setconf"]);
  });

  it("`wgo up` again starts the report over (a full one: the new interface's counters are zero); the next beat builds on it", async () => {
    const { api, host, wgo } = await setup();
    await wgo(["heartbeat", "--name", "laptop", "--once"]);
    expect(api.state.peerRows).toEqual(new Map([[PEER_KEY, [1763719200, 1234, 5678, GATEWAY.endpoint]]]));
    await wgo(["down", "--name", "laptop"]);
    const again = await wgo(["up", "--name", "laptop"]);
    expect(again.json[0]).toMatchObject({ action: "created", reported: true });
    const seq = api.state.peerSeq!;
    expect(api.state.heartbeats.at(-1)).toEqual({ appliedRevision: 3, peerReport: { base: null, changed: [], removed: [], more: false } });
    expect(api.state.peerRows).toEqual(new Map());
    host.links.get("wg7")!.dump = dumpText(1763719300, 10, 20);
    await wgo(["heartbeat", "--name", "laptop", "--once"]);
    expect(api.state.heartbeats.at(-1)).toEqual({
      appliedRevision: 3,
      peerReport: { base: seq, changed: [[PEER_KEY, 1763719300, 10, 20, GATEWAY.endpoint]], removed: [], more: false },
    });
  });

  it("with the interface down reports no peers and says so", async () => {
    const { api, wgo } = await setup();
    await wgo(["down", "--name", "laptop"]);
    const result = await wgo(["heartbeat", "--name", "laptop", "--once"]);
    expect(result.stderr).toBe("note: wg7 is not up: reporting no peers\n");
    expect(api.state.heartbeats.at(-1)).toEqual({ appliedRevision: 3, peerReport: { base: 1, changed: [], removed: [], more: false } });
  });
});

describe("wgo heartbeat loop", () => {
  it("beats again at once after applying, and exits 0 on SIGTERM", async () => {
    const state = newNetworkState();
    let signals: EventEmitter | undefined;
    const { wgo, signals: emitter } = await setup(
      {
        "POST /client/devices/dev_1/heartbeat": (request) => {
          state.heartbeats.push(request.body);
          // The first beat is `wgo up`'s own report; then the loop's two.
          if (state.heartbeats.length === 3) signals!.emit("SIGTERM");
          return { status: 200, body: { desiredRevision: state.revision, configChanged: request.body.appliedRevision !== state.revision } };
        },
      },
      state,
    );
    signals = emitter;
    state.revision = 4; // moved after `up` applied revision 3
    // --interval 30, yet the test ends inside vitest's 5 s timeout: the beat after an apply does not wait.
    const result = await wgo(["heartbeat", "--name", "laptop", "--interval", "30", "--apply"]);
    expect(result.code).toBe(0);
    expect(state.heartbeats.map((beat) => beat.appliedRevision)).toEqual([3, 3, 4]);
    expect(signals.listenerCount("SIGTERM"), "signal handlers are removed").toBe(0);
  });

  it("keeps beating through a 500, stops with exit 3 when the credential is refused (the unit does not restart on 3)", async () => {
    const answers: Array<{ status: number; body: unknown }> = [];
    // `wgo up`'s own report (in setup) is taken; the answers below are the loop's.
    const taken = { status: 200, body: { desiredRevision: 3, configChanged: false } };
    const { wgo } = await setup({ "POST /client/devices/dev_1/heartbeat": () => answers.shift() ?? taken });
    answers.push(
      { status: 500, body: envelope("internal", "Internal error") },
      { status: 401, body: envelope("unauthorized", "The device credential is not valid") },
    );
    const result = await wgo(["heartbeat", "--name", "laptop", "--interval", "1"]);
    // The 500 it survives is a line on stderr; the 401 that ends it is the --json error object on stdout.
    expect(result.stderr).toBe("error: 500 internal: Internal error\n");
    expect(result.json.at(-1)).toEqual({
      error: {
        code: "credential_refused",
        message:
          "the API refused the device credential (401 unauthorized: The device credential is not valid): the device was deleted or revoked; enrol this machine again",
      },
    });
    expect(result.code).toBe(3);
    expect(answers).toEqual([]);
  });

  it("the real process exits 0 on SIGTERM between beats", async () => {
    const api = await startDeviceApi();
    const { home, remove } = tempHome();
    stop.push(() => api.close(), remove);
    await enrolLaptop(runWgo, api.url, home);
    const wgoPath = fileURLToPath(new URL("../../cli/wgo.mjs", import.meta.url));
    const child = spawn(
      process.execPath,
      [wgoPath, "--home", home, "heartbeat", "--name", "laptop", "--interface", "wgonone0", "--interval", "60"],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { PATH: process.env.PATH ?? "" },
      },
    );
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 10_000;
    while (!stdout.includes("heartbeat laptop:") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGTERM");
    expect(await exited, stdout).toBe(0);
    expect(api.state.heartbeats).toHaveLength(1);
  });
});
