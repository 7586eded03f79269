// The fleet bench's own helpers (bench/fleet-*.ts), against a Node server that keeps each reporter's base as the
// API does: the bodies are what wgo sends (a device's heartbeat, a gateway agent's report), each reporter's beats
// build on the seq it was last answered and never overlap, a resync makes a full report, and the paced and flat-out
// drivers send what they say (the fleet's rate, the gateways' share).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { DEVICE_PERIOD_MS, flatOut, paced, schedule } from "../../bench/fleet-drive";
import { deviceReporter, type FleetPeer, gatewayReporter, peerEndpoint, type Reporter } from "../../bench/fleet-reports";

const key = (n: number) => Buffer.alloc(32, n).toString("base64");
/** A network of a gateway (node 0) and `devices` devices, as bench/fleet-world.ts makes one. */
function network(devices: number, net = 3) {
  const nodes: FleetPeer[] = Array.from({ length: devices + 1 }, (_, n) => ({
    publicKey: key(net * 64 + n),
    endpoint: peerEndpoint(net, n),
  }));
  const reporters = Array.from({ length: devices }, (_, d) =>
    deviceReporter(
      { deviceId: `dev${net}-${d}`, token: `dvc_${net}_${d}`, revision: 7, localEndpoint: "192.168.3.10:41641" },
      nodes.filter((_, n) => n !== d + 1),
    ),
  );
  const gateway = gatewayReporter({ credential: `agt_${net}`, nodeId: "node-gw", routing: 7, dns: 2 }, nodes.slice(1));
  return { nodes, devices: reporters, gateway };
}

type Seen = { token: string; path: string; body: any };

/** Answers as the API does: a report on the base it holds (or a full one) gets the next seq; anything else a resync. */
async function fakeApi(options: { resyncOnce?: string } = {}) {
  const seen: Seen[] = [];
  const held = new Map<string, number>();
  const inFlight = new Set<string>();
  let overlaps = 0;
  const server = createServer((req, res) => {
    const token = String(req.headers.authorization).replace("Bearer ", "");
    if (inFlight.has(token)) overlaps++;
    inFlight.add(token);
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const body = JSON.parse(text);
      seen.push({ token, path: req.url!, body });
      const report = body.peerReport ?? body.nodes[0].peerReport;
      let answer: { seq: number | null; resync: boolean };
      if (options.resyncOnce === token && report.base !== null) {
        options.resyncOnce = undefined;
        answer = { seq: null, resync: true };
      } else if (report.base === null || report.base === held.get(token)) {
        answer = { seq: (held.get(token) ?? 0) + 1, resync: false };
        held.set(token, answer.seq!);
      } else answer = { seq: null, resync: true };
      // A little latency, so concurrent requests really overlap.
      setTimeout(() => {
        inFlight.delete(token);
        res.setHeader("Content-Type", "application/json");
        res.end(
          JSON.stringify(
            body.peerReport ? { desiredRevision: 7, configChanged: false, peerReport: answer } : { nodes: [{ peerReport: answer }] },
          ),
        );
      }, 2);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl, seen, overlaps: () => overlaps, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A paced run short enough for one beat of one reporter (its first, due at 0). */
const oneBeat = (reporter: Reporter, baseUrl: string) => paced(baseUrl, [reporter], [], 1000, 0.001);

describe("the fleet bench's reports", () => {
  it("a device beats as wgo does: its peers but itself, each tunnel with counters and endpoint, on the seq last answered", async () => {
    const api = await fakeApi({ resyncOnce: "dvc_3_4" });
    try {
      const { nodes, devices } = network(50);
      const device = devices[4]!;
      for (let beat = 0; beat < 3; beat++) await oneBeat(device, api.baseUrl);
      const bodies = api.seen.map((s) => s.body);
      expect(api.seen.every((s) => s.path === "/api/v1/client/devices/dev3-4/heartbeat")).toBe(true);
      // Full report, then a delta on seq 1 refused (resync), the full report wgo then sends, then a delta on seq 2.
      expect(bodies.map((b) => b.peerReport.base)).toEqual([null, 1, null, 2]);
      for (const body of bodies) {
        expect(Object.keys(body)).toEqual(["appliedRevision", "localEndpoints", "peerReport"]);
        expect(body.localEndpoints).toEqual(["192.168.3.10:41641"]);
        expect(body.peerReport.removed).toEqual([]);
        expect(body.peerReport.more).toBe(false);
        // 50 tunnels in use: every node of the network but the device itself (node 5), with the endpoint it is heard from.
        expect(body.peerReport.changed.map((t: unknown[]) => t[0])).toEqual(nodes.filter((_, n) => n !== 5).map((p) => p.publicKey));
        expect(
          body.peerReport.changed.every(
            (t: unknown[]) =>
              t.length === 5 &&
              t[4] ===
                peerEndpoint(
                  3,
                  nodes.findIndex((p) => p.publicKey === t[0]),
                ),
          ),
        ).toBe(true);
      }
      // Counters move every beat, so a steady-state delta carries every tunnel again.
      expect(bodies[3].peerReport.changed[0][2]).toBeGreaterThan(bodies[0].peerReport.changed[0][2]);
      expect(JSON.stringify(bodies[3]).length).toBeGreaterThan(4000);
    } finally {
      await api.close();
    }
  });

  it("a gateway agent reports its node's tunnels to every device, as cli/gateway/reporter.mjs sends it", async () => {
    const api = await fakeApi();
    try {
      const { nodes, gateway } = network(50);
      await oneBeat(gateway, api.baseUrl);
      await oneBeat(gateway, api.baseUrl);
      const [first, second] = api.seen;
      expect(first!.path).toBe("/api/v1/agents/me/report");
      expect(first!.token).toBe("agt_3");
      const entry = second!.body.nodes[0];
      expect(entry).toMatchObject({ nodeId: "node-gw", appliedRoutingRevision: 7, appliedDnsRevision: 2, error: null, probes: [] });
      expect(entry.peerReport.base).toBe(1);
      expect(entry.peerReport.changed.map((t: unknown[]) => t[0])).toEqual(nodes.slice(1).map((p) => p.publicKey));
    } finally {
      await api.close();
    }
  });
});

describe("the fleet bench's drivers", () => {
  it("spreads 10,000 devices over their 30 s period (333 a second) and the gateways over theirs", () => {
    const fake = (n: number) => Array.from({ length: n }, () => ({}) as Reporter);
    const events = schedule(fake(10_000), fake(200), 2680, 30);
    const perSecond = new Map<number, number>();
    for (const e of events) perSecond.set(Math.floor(e.at / 1000), (perSecond.get(Math.floor(e.at / 1000)) ?? 0) + 1);
    expect(events.every((e) => e.at >= 0 && e.at < DEVICE_PERIOD_MS)).toBe(true);
    // Each device once; each gateway 11 or 12 times (30 s over 2.68 s, from its offset).
    expect(events.length).toBeGreaterThanOrEqual(10_000 + 200 * 11);
    expect(events.length).toBeLessThanOrEqual(10_000 + 200 * 12);
    // 333.3 device beats and 74.6 gateway reports each second, give or take one of each.
    expect(perSecond.size).toBe(30);
    for (const count of perSecond.values()) {
      expect(count).toBeGreaterThanOrEqual(406);
      expect(count).toBeLessThanOrEqual(410);
    }
  });

  it("flat out keeps every reporter's beats in order (never two at once) and the gateways at their share", async () => {
    const api = await fakeApi();
    try {
      const nets = Array.from({ length: 10 }, (_, i) => network(10, i));
      const devices = nets.flatMap((n) => n.devices);
      const gateways = nets.map((n) => n.gateway);
      const run = await flatOut(api.baseUrl, devices, gateways, 0.2, 1, 16);
      expect(run.non2xx).toBe(0);
      expect(run.resyncs).toBe(0);
      expect(api.overlaps()).toBe(0);
      expect(run.requests).toBe(api.seen.length);
      const share = api.seen.filter((s) => s.token.startsWith("agt_")).length / api.seen.length;
      expect(share).toBeGreaterThan(0.15);
      expect(share).toBeLessThan(0.25);
    } finally {
      await api.close();
    }
  });
});
