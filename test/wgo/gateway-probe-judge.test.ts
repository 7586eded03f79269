// The gateway agent's forwarding probes judged echo by echo (cli/gateway/prober.mjs, probe-judge.mjs): the
// prober runs against a simulated host whose pings print what the test tells them, line by line as the real
// `ping -O -n` does, so every lost echo and reply is placed exactly.
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";
import { fakeHost, type FakeStream } from "./support/fake-system.ts";

const { createProber } = cli.prober;
const { DEFAULT_PROBE_RULES, probeRulesFrom } = cli.probeJudge;
const PROBE = { target: "10.60.0.3", acrossNodeId: "node_m1" };
const NODE = "node_p";

let stopProber: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopProber?.();
  stopProber = undefined;
});

/** A prober on a host whose pings the test drives; `turns` counts the reports it asked for. */
async function probing(rules = DEFAULT_PROBE_RULES, probes = [PROBE]) {
  const host = fakeHost({ pings: "manual" });
  const logs: string[] = [];
  const state = { turns: 0 };
  const prober = createProber({
    systemFor: (netns: string | null) => host.createSystem({ netns: netns ?? undefined }),
    log: (line: string) => logs.push(line),
    onTurn: () => (state.turns += 1),
    rules,
  });
  stopProber = () => prober.stop();
  await prober.sync([{ nodeId: NODE, netns: null, probes }], rules);
  let seq = 0;
  /** The running ping of the probe of PROBE.target. */
  const ping = (): FakeStream => host.streams.filter((s) => s.running && s.argv.at(-1) === PROBE.target).at(-1)!;
  const echoes = (pattern: string) => {
    // "." a reply, "x" a lost echo, as `ping -O -n` prints them.
    for (const c of pattern) {
      seq += 1;
      ping().print(c === "." ? `64 bytes from ${PROBE.target}: icmp_seq=${seq} ttl=63 time=0.4 ms` : `no answer yet for icmp_seq=${seq}`);
    }
  };
  const ok = () => prober.results(NODE, null, probes)[0].ok as boolean;
  return { host, prober, state, logs, echoes, ok };
}

describe("forwarding probe judgement", () => {
  it("stays up through 3 lost echoes and a reply, turns down on the 4th loss in a row, and up after 4 replies in a row", async () => {
    const { host, state, logs, echoes, ok } = await probing();
    expect(host.streams[0]!.argv).toEqual(["ping", "-O", "-n", "-i", "0.1", PROBE.target]);
    expect(ok(), "a probe starts up").toBe(true);
    echoes("xxx.xxx.");
    expect(ok()).toBe(true);
    expect(state.turns).toBe(0);
    echoes("xxxx");
    expect(ok()).toBe(false);
    expect(state.turns).toBe(1);
    echoes("xxxx...x...");
    expect(ok(), "three replies, a loss, three replies: still down").toBe(false);
    echoes(".");
    expect(ok()).toBe(true);
    expect(state.turns).toBe(2);
    expect(logs).toEqual([
      `node ${NODE}: probe of ${PROBE.target} across ${PROBE.acrossNodeId} is down`,
      `node ${NODE}: probe of ${PROBE.target} across ${PROBE.acrossNodeId} is up`,
    ]);
  });

  it("never turns down on one echo in three lost, nor on replies later than the interval, over a long run", async () => {
    const { state, echoes, ok } = await probing();
    echoes("..x".repeat(400));
    // A reply slower than the interval: -O reports its echo unanswered, then the reply comes.
    echoes("x.".repeat(400));
    echoes("xx.".repeat(200));
    expect(ok()).toBe(true);
    expect(state.turns).toBe(0);
  });

  it("ignores the header, errors and duplicate replies", async () => {
    const { host, echoes, ok } = await probing();
    echoes("xxx");
    const ping = host.streams[0]!;
    ping.print("PING 10.60.0.3 (10.60.0.3) 56(84) bytes of data.");
    ping.print("From 10.60.0.1 icmp_seq=2 Destination Host Unreachable");
    ping.print("64 bytes from 10.60.0.3: icmp_seq=2 ttl=63 time=0.4 ms (DUP!)");
    expect(ok()).toBe(true);
    echoes("x");
    expect(ok(), "the duplicate did not break the run of losses").toBe(false);
  });

  it("counts a ping that ends on its own as a lost echo and starts it again an interval later", async () => {
    const rules = { intervalMs: 100, downAfter: 3, upAfter: 1 };
    const { host, state, logs, ok } = await probing(rules);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expect.poll(() => host.streams.filter((s) => s.running).length).toBe(1);
      host.streams.at(-1)!.exit(2, "ping: connect: Network is unreachable\n");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(ok()).toBe(false);
    expect(state.turns).toBe(1);
    expect(
      logs.filter((line) => line.includes("ping ended")),
      "logged once a run, not every retry",
    ).toEqual([
      `node ${NODE}: probe of ${PROBE.target} across ${PROBE.acrossNodeId}: ping ended (exit 2: ping: connect: Network is unreachable); retrying`,
    ]);
    await expect.poll(() => host.streams.filter((s) => s.running).length, { timeout: 3_000 }).toBe(1);
    expect(host.streams, "three ended, the fourth runs (a second later, as the probe is down)").toHaveLength(4);
  });
});

describe("probe processes and rules", () => {
  it("keeps an unchanged probe's ping, ends a changed one's, and ends all on stop; new rules restart pings but keep down", async () => {
    const other = { target: "10.60.0.7", acrossNodeId: "node_m2" };
    const { host, prober, echoes, ok } = await probing(DEFAULT_PROBE_RULES, [PROBE, other]);
    expect(host.streams.map((s) => s.argv.at(-1))).toEqual([PROBE.target, other.target]);
    const moved = { target: "10.60.0.7", acrossNodeId: "node_m3" };
    await prober.sync([{ nodeId: NODE, netns: null, probes: [PROBE, moved] }], DEFAULT_PROBE_RULES);
    expect(host.streams.map((s) => [s.argv.at(-1), s.running])).toEqual([
      [PROBE.target, true],
      [other.target, false],
      [moved.target, true],
    ]);
    echoes("xxxx");
    expect(ok()).toBe(false);
    const slower = { intervalMs: 200, downAfter: 2, upAfter: 2 };
    await prober.sync([{ nodeId: NODE, netns: null, probes: [PROBE, moved] }], slower);
    const running = host.streams.filter((s) => s.running);
    expect(running.map((s) => s.argv.join(" "))).toEqual([`ping -O -n -i 0.2 ${PROBE.target}`, `ping -O -n -i 0.2 ${moved.target}`]);
    expect(prober.results(NODE, null, [PROBE])[0].ok, "a down probe stays down across the restart").toBe(false);
    await prober.sync([], slower);
    expect(
      host.streams.some((s) => s.running),
      "the node left: no ping left",
    ).toBe(false);
    await prober.sync([{ nodeId: NODE, netns: null, probes: [PROBE] }], slower);
    await prober.stop();
    expect(
      host.streams.some((s) => s.running),
      "the agent stopped: no ping left",
    ).toBe(false);
  });

  it("takes the server's rules within range and its defaults for anything missing or out of range", () => {
    expect(DEFAULT_PROBE_RULES).toEqual({ intervalMs: 100, downAfter: 4, upAfter: 4 });
    expect(probeRulesFrom({ intervalMs: 100, downAfter: 1, upAfter: 20 })).toEqual({ intervalMs: 100, downAfter: 1, upAfter: 20 });
    expect(probeRulesFrom({ intervalMs: 5000, downAfter: 3, upAfter: 6 })).toEqual({ intervalMs: 5000, downAfter: 3, upAfter: 6 });
    for (const bad of [undefined, null, "fast", [], {}]) expect(probeRulesFrom(bad)).toEqual(DEFAULT_PROBE_RULES);
    expect(probeRulesFrom({ intervalMs: 99, downAfter: 0, upAfter: 21 })).toEqual(DEFAULT_PROBE_RULES);
    expect(probeRulesFrom({ intervalMs: 5001, downAfter: 2.5, upAfter: "3" })).toEqual(DEFAULT_PROBE_RULES);
    expect(probeRulesFrom({ intervalMs: 500, downAfter: -1 })).toEqual({ intervalMs: 500, downAfter: 4, upAfter: 4 });
  });
});
