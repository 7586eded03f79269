// `wgo heartbeat --apply`'s loop follows every change by long poll, however changes follow each other (issue 40
// item 4: after one change it used to sleep a whole interval, deaf to the next one), and still cannot spin
// against a server that keeps saying "changed" without its revision moving.
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import type { PeerConfig } from "./support/config-diff.ts";
import { currentConfig, enrolLaptop, type NetworkState, newNetworkState, startDeviceApi } from "./support/device-api.ts";
import type { FakeRoute } from "./support/fake-api.ts";
import { fakeHost } from "./support/fake-system.ts";

const KEY_B = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
const KEY_C = "HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=";

const peer = (nodeId: string, address: string, publicKey: string): PeerConfig => ({
  nodeId,
  name: nodeId,
  address,
  publicKey,
  endpoint: null,
  allowedIps: [`${address}/32`],
  persistentKeepalive: null,
});

let stop: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of stop.reverse()) await step();
  stop = [];
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup(routes: Record<string, FakeRoute> = {}, state: NetworkState = newNetworkState()) {
  const api = await startDeviceApi(routes, state);
  const { home, remove } = tempHome();
  stop.push(() => api.close(), remove);
  await enrolLaptop(runWgo, api.url, home);
  const host = fakeHost();
  const signals = new EventEmitter();
  const wgo = (args: string[]) => runWgo(["--home", home, "--json", ...args], { createSystem: host.createSystem, signals });
  await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
  const polls = () => api.requests.filter((r) => r.path.endsWith("/config") && r.query.has("wait"));
  return { api, host, wgo, signals, polls };
}

describe("wgo heartbeat --apply's loop", () => {
  it("applies each of three changes published 2 s apart within a second of its publication", { timeout: 15_000 }, async () => {
    const { api, host, wgo, signals } = await setup();
    const peers = () => [...host.links.get("wg7")!.peers.keys()];
    // An interval of 60 s: the periodic beat cannot bring any of them in within the test.
    const running = wgo(["heartbeat", "--name", "laptop", "--apply", "--interval", "60"]);
    const changes: Array<{ publish: () => void; landed: () => boolean }> = [
      {
        publish: () => api.state.peers.push(peer("node_3", "10.77.0.3", KEY_B)),
        landed: () => peers().includes(KEY_B),
      },
      {
        publish: () => api.state.peers.splice(0, 1, peer("node_4", "10.77.0.4", KEY_C)),
        landed: () => peers().includes(KEY_C) && !peers().includes(KEY_B),
      },
      // Only the gateway is left (B gone too: a second change that never landed fails this one as well).
      { publish: () => api.state.peers.splice(0), landed: () => peers().length === 1 && !peers().includes(KEY_C) },
    ];
    const delays: number[] = [];
    await sleep(300); // the loop is in its first long poll
    for (const change of changes) {
      const published = Date.now();
      api.state.revision += 1;
      change.publish();
      while (!change.landed() && Date.now() - published < 2_000) await sleep(10);
      delays.push(Date.now() - published);
      await sleep(Math.max(0, 2_000 - (Date.now() - published)));
    }
    signals.emit("SIGTERM");
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    // "Within about a second" (docs/cli.md): the fake API answers a held poll within 20 ms of the move.
    for (const delay of delays) expect(delay, `delays ${delays.join(", ")} ms`).toBeLessThan(1_000);
    expect(result.json.map((line: { applied: { revision: number } | null }) => line.applied?.revision).filter(Boolean)).toEqual([4, 5, 6]);
    expect(api.state.heartbeats.at(-1).appliedRevision).toBe(6);
  });

  /** Runs the loop with --interval 1 for `ms`, then SIGTERM; answers how many beats and long polls it sent. */
  async function runFor(ms: number, context: Awaited<ReturnType<typeof setup>>) {
    const { api, wgo, signals, polls } = context;
    const beatsBefore = api.requests.filter((r) => r.path.endsWith("/heartbeat")).length;
    setTimeout(() => signals.emit("SIGTERM"), ms);
    const result = await wgo(["heartbeat", "--name", "laptop", "--apply", "--interval", "1"]);
    expect(result.code, result.stderr).toBe(0);
    return { beats: api.requests.filter((r) => r.path.endsWith("/heartbeat")).length - beatsBefore, polls: polls().length };
  }

  it("a long poll that says 'changed' forever, while the beat after it has nothing to apply, is polled once an interval", async () => {
    const state = newNetworkState();
    const context = await setup(
      {
        // Answers every poll at once with a revision the heartbeat never asks for.
        "POST /client/devices/dev_1/config": (request) => ({
          status: 200,
          body: {
            deviceId: "dev_1",
            config: { ...currentConfig(state), routingRevision: request.query.has("wait") ? 99 : state.revision },
          },
        }),
      },
      state,
    );
    const { beats, polls } = await runFor(2_200, context);
    // Each interval: a beat, a poll that answers at once, a beat that moves nothing, then the interval's pause:
    // 2 polls and 4 beats in 2.2 s (an unguarded loop sends hundreds).
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(3);
    expect(beats).toBeLessThanOrEqual(6);
  });

  it("a heartbeat that says 'configChanged' forever while the config's revision stays is beaten once an interval", async () => {
    const state = newNetworkState();
    const context = await setup(
      {
        "POST /client/devices/dev_1/heartbeat": (request) => {
          state.heartbeats.push(request.body);
          return { status: 200, body: { desiredRevision: state.revision + 1, configChanged: true } };
        },
      },
      state,
    );
    const { beats, polls } = await runFor(2_200, context);
    // Each beat applies revision 3 again, which moves nothing: no beat at once after it, a poll that waits
    // the interval (the fake's revision does not move), then the next beat: 3 beats in 2.2 s.
    expect(beats).toBeGreaterThanOrEqual(2);
    expect(beats).toBeLessThanOrEqual(4);
    expect(polls).toBeLessThanOrEqual(3);
  });

  it("a server whose revision moves at every request is met at most four rounds a second", async () => {
    const state = newNetworkState();
    const context = await setup(
      {
        "POST /client/devices/dev_1/heartbeat": (request) => {
          state.heartbeats.push(request.body);
          state.revision += 1;
          return { status: 200, body: { desiredRevision: state.revision, configChanged: true } };
        },
      },
      state,
    );
    const { beats } = await runFor(2_000, context);
    // Every beat applies a new revision and beats again, but rounds start MIN_ROUND_GAP_MS (250 ms) apart.
    expect(beats).toBeGreaterThanOrEqual(3);
    expect(beats).toBeLessThanOrEqual(9);
  });

  it("a busy network's 503 with Retry-After: neither a long poll nor a beat before it has passed, then beats again", async () => {
    const state = newNetworkState();
    const times: number[] = [];
    let refuseNext = false; // `wgo up` in setup beats too: only the loop's first beat is refused
    const context = await setup(
      {
        "POST /client/devices/dev_1/heartbeat": (request) => {
          times.push(Date.now());
          if (refuseNext) {
            refuseNext = false;
            return {
              status: 503,
              headers: { "Retry-After": "1" },
              body: { error: { code: "unavailable", message: "The network is busy; try again shortly" } },
            };
          }
          state.heartbeats.push(request.body);
          return { status: 200, body: { desiredRevision: state.revision, configChanged: false } };
        },
      },
      state,
    );
    const sentBefore = context.api.requests.length;
    times.length = 0;
    refuseNext = true;
    const { beats } = await runFor(2_200, context);
    expect(beats).toBeGreaterThanOrEqual(2);
    // The second beat waited out the server's second (plus wgo's jitter, cli/retry-after.mjs) ...
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1_000);
    // ... and no long poll went out in between (requests are recorded in the order they came).
    const sent = context.api.requests
      .slice(sentBefore)
      .map((r) => (r.path.endsWith("/heartbeat") ? "beat" : r.query.has("wait") ? "poll" : "other"));
    const refused = sent.indexOf("beat");
    const next = sent.indexOf("beat", refused + 1);
    expect(next).toBeGreaterThan(refused);
    expect(sent.slice(refused + 1, next)).not.toContain("poll");
  });
});
