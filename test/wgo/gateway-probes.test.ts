// `wgo gateway run` with continuous forwarding probes, against a fake agent API on a simulated host whose
// pings answer an echo every interval unless the test made the target unreachable: a probe that turns is
// reported at once (not at the next report), the server's probeRules set the cadence, and no ping outlives
// its probe, its node or the agent.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { EventEmitter } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runWgo } from "./support/cli.ts";
import { nodeConfig } from "./support/config-diff.ts";
import { type FakeAnswer, type FakeApi, type FakeRequest, startFakeApi } from "./support/fake-api.ts";
import { fakeHost } from "./support/fake-system.ts";

const NODE = "node_gw1";
const CONFIG = nodeConfig({
  nodeId: NODE,
  networkId: "net_1",
  routingRevision: 4,
  interface: { address: "10.60.0.1/24", listenPort: 51820, dns: [], dnsSearch: [] },
  peers: [],
  routingIntent: [],
  forwarding: true,
});
const BEYOND = { target: "10.60.0.3", acrossNodeId: "node_m1" };

let api: FakeApi | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The desired state with this node asking `probes`, and the top-level rules when given. */
const desired = (probes: unknown[] | null, probeRules?: unknown): FakeAnswer => ({
  status: 200,
  body: {
    gatewayId: "gw_1",
    nodes: probes
      ? [
          {
            networkId: "net_1",
            nodeId: NODE,
            address: "10.60.0.1",
            servesDns: false,
            publicKey: null,
            config: CONFIG,
            dns: { domain: "lab.internal", revision: 2 },
            probes,
          },
        ]
      : [],
    ...(probeRules === undefined ? {} : { probeRules }),
  },
  headers: { etag: `"e${Math.random()}"` },
});

/** Runs the agent with `polls` answering the desired state in turn; the last one holds the poll, then stops it. */
async function runAgent(
  polls: Array<(host: ReturnType<typeof fakeHost>) => FakeAnswer>,
  options: {
    holdMs: number;
    reportInterval: number;
    unreachable?: string[];
    onReport?: (request: FakeRequest, host: ReturnType<typeof fakeHost>) => void;
  },
) {
  const host = fakeHost({ unreachable: options.unreachable ?? [BEYOND.target] });
  const signals = new EventEmitter();
  let poll = 0;
  const reportTimes: number[] = [];
  api = await startFakeApi({
    "PUT /agents/me/nodes/node_gw1": (request) => ({ status: 200, body: { id: NODE, publicKey: request.body.publicKey } }),
    "GET /agents/me/desired-state": async () => {
      const answer = polls[poll++];
      if (answer) return answer(host);
      await new Promise((resolve) => setTimeout(resolve, options.holdMs));
      signals.emit("SIGTERM");
      return { status: 304, headers: { etag: '"held"' } };
    },
    "POST /agents/me/report": (request) => {
      reportTimes.push(Date.now());
      options.onReport?.(request, host);
      return { status: 200, body: { nodes: request.body.nodes.map((n: { nodeId: string }) => ({ nodeId: n.nodeId })) } };
    },
  });
  const dir = mkdtempSync(join(tmpdir(), "wgo-probe-"));
  dirs.push(dir);
  writeFileSync(
    join(dir, "agent.json"),
    JSON.stringify({ api: api.url, agentId: "agt_1", gatewayId: "gw_1", name: "edge", credential: "agc_x" }),
    {
      mode: 0o600,
    },
  );
  const started = Date.now();
  const result = await runWgo(["--json", "gateway", "run", "--report-interval", String(options.reportInterval), "--state-dir", dir], {
    createSystem: host.createSystem,
    signals,
    env: {},
  });
  expect(result.code, result.stderr).toBe(0);
  const reports = api.requests.filter((r) => r.path === "/agents/me/report").map((r) => r.body.nodes[0]?.probes);
  return { host, result, reports, reportTimes: reportTimes.map((t) => t - started) };
}

describe("wgo gateway run: probes reported as they turn", () => {
  it("reports a probe turning down within about a second, and up again, with a 60 s report interval", async () => {
    const { reports, reportTimes, host, result } = await runAgent([() => desired([BEYOND])], {
      holdMs: 4_000,
      reportInterval: 60,
      // The path forwards again as soon as the server has heard "down".
      onReport: (request, fake) => {
        if (request.body.nodes[0]?.probes?.[0]?.ok === false) fake.unreachable.delete(BEYOND.target);
      },
    });
    // After the apply (a new probe starts up), then one report per turn: no periodic report in 4 s.
    expect(reports).toEqual([[{ ...BEYOND, ok: true }], [{ ...BEYOND, ok: false }], [{ ...BEYOND, ok: true }]]);
    // 4 lost echoes at 250 ms, then 4 replies: about a second each, far from the 60 s interval.
    const [applied, down, up] = reportTimes as [number, number, number];
    // (Bounds with room for a loaded machine; the judgement itself is test/wgo/gateway-probe-judge.test.ts.)
    expect(down - applied).toBeLessThan(3_000);
    expect(up - down).toBeLessThan(3_000);
    expect(result.stderr).toMatch(/probe of 10\.60\.0\.3 across node_m1 is down/);
    expect(
      host.streams.some((s) => s.running),
      "no ping outlives the agent",
    ).toBe(false);
  });

  it("sends a burst of turns as one report (at most one more per 200 ms), not one per probe", async () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ target: `10.60.1.${i + 1}`, acrossNodeId: "node_m1" }));
    const { reports } = await runAgent([() => desired(many)], {
      holdMs: 2_000,
      reportInterval: 60,
      unreachable: many.map((probe) => probe.target),
    });
    expect(reports[0]).toEqual(many.map((probe) => ({ ...probe, ok: true })));
    const turned = reports.slice(1);
    expect(turned.length).toBeGreaterThanOrEqual(1);
    expect(turned.length, "ten probes turning together").toBeLessThanOrEqual(2);
    expect(turned.at(-1)).toEqual(many.map((probe) => ({ ...probe, ok: false })));
  });

  it("runs the server's probeRules cadence, and its defaults when the rules are out of range", async () => {
    const fast = await runAgent([() => desired([BEYOND], { intervalMs: 100, downAfter: 2, upAfter: 3 })], {
      holdMs: 1_000,
      reportInterval: 60,
    });
    expect(fast.host.streams.map((s) => s.argv)).toEqual([["ping", "-O", "-n", "-i", "0.1", BEYOND.target]]);
    // 2 lost echoes at 100 ms: down about 200 ms after the apply (at the defaults, 400 ms).
    expect(fast.reports.slice(0, 2)).toEqual([[{ ...BEYOND, ok: true }], [{ ...BEYOND, ok: false }]]);
    expect(fast.reportTimes[1]! - fast.reportTimes[0]!).toBeLessThan(1_500);
    await api?.close();
    const bad = await runAgent([() => desired([BEYOND], { intervalMs: 10, downAfter: 0, upAfter: 500 })], {
      holdMs: 250,
      reportInterval: 60,
    });
    expect(bad.host.streams.map((s) => s.argv)).toEqual([["ping", "-O", "-n", "-i", "0.1", BEYOND.target]]);
    expect(bad.reports, "4 losses at 100 ms take 400 ms: nothing turned in 0.25 s").toEqual([[{ ...BEYOND, ok: true }]]);
  });

  it("ends a changed probe's ping and a departed node's, keeps an unchanged one's, and ends the rest on stop", async () => {
    const moved = { target: "10.60.0.7", acrossNodeId: "node_m2" };
    const seen: string[][] = [];
    /** Notes the pings running when the next poll comes, then answers it. */
    const noting = (answer: FakeAnswer) => (host: ReturnType<typeof fakeHost>) => {
      seen.push(host.streams.filter((s) => s.running).map((s) => s.argv.at(-1)!));
      return answer;
    };
    const outcome = await runAgent(
      [
        () => desired([BEYOND, { target: "10.60.0.5", acrossNodeId: "node_m1" }]),
        noting(desired([BEYOND, moved])),
        noting(desired(null)),
        noting(desired([moved])),
      ],
      { holdMs: 500, reportInterval: 60 },
    );
    expect(seen).toEqual([[BEYOND.target, "10.60.0.5"], [BEYOND.target, moved.target], []]);
    // BEYOND kept its first ping through the second answer: 4 pings in all.
    expect(outcome.host.streams.map((s) => s.argv.at(-1))).toEqual([BEYOND.target, "10.60.0.5", moved.target, moved.target]);
    expect(outcome.host.streams.some((s) => s.running)).toBe(false);
  });
});
