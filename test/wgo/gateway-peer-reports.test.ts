// The gateway agent's reports with delta peer reports (cli/gateway/peer-reports.mjs): a gateway node of a
// 10,000-node network with every peer in use, next to small nodes. Every request stays under the 64 KiB
// body limit; probes go once; the server's seq per node is kept on disk; the next report sends what changed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { envelope, type FakeApi, type FakeRequest, startFakeApi } from "./support/fake-api.ts";

const load = (name: string): Promise<any> => import(/* @vite-ignore */ `../../cli/${name}`);
const { sendNodeReports } = await load("gateway/peer-reports.mjs");

const keyOf = (i: number) => `${i.toString(36).padStart(8, "0")}${"G".repeat(35)}=`;
const dumpPeers = (count: number, at = 1_763_719_200) =>
  Array.from({ length: count }, (_, i) => ({
    publicKey: keyOf(i),
    latestHandshake: at - i,
    rxBytes: 5_000_000 + i,
    txBytes: 9_000_000 + i,
  }));

let api: FakeApi | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fake report route holding rows per node by the server's rule; `forget` drops a node's base once. */
async function setup(options: { old?: boolean; preNat?: boolean } = {}) {
  const rows = new Map<string, Map<string, number[]>>();
  const seqs = new Map<string, number>();
  const forget = new Set<string>();
  api = await startFakeApi({
    "POST /agents/me/report": (request: FakeRequest) => {
      if (options.old && request.body.nodes.some((node: any) => node.peerReport)) {
        return {
          status: 422,
          body: envelope("VALIDATION_ERROR", "Invalid request", [{ path: "nodes.0.peerReport", message: "Unknown field" }]),
        };
      }
      // A server from before issue 28: a tuple's 5th element (the endpoint) is too much.
      const tooLong = request.body.nodes.flatMap((node: any, n: number) =>
        (node.peerReport?.changed ?? []).flatMap((entry: unknown[], i: number) =>
          entry.length > 4 ? [{ path: `nodes.${n}.peerReport.changed.${i}`, message: "Too big: expected array to have <=4 items" }] : [],
        ),
      );
      if (options.preNat && tooLong.length > 0) return { status: 422, body: envelope("VALIDATION_ERROR", "Invalid request", tooLong) };
      const nodes = request.body.nodes.map((node: any) => {
        const report = node.peerReport;
        if (!report) return { nodeId: node.nodeId };
        const held = rows.get(node.nodeId) ?? new Map();
        rows.set(node.nodeId, held);
        if (forget.delete(node.nodeId) || (report.base !== null && report.base !== seqs.get(node.nodeId))) {
          return { nodeId: node.nodeId, peerReport: { seq: null, resync: true } };
        }
        if (report.base === null) held.clear();
        for (const [key, ...counters] of report.changed) held.set(key, counters);
        for (const key of report.removed) held.delete(key);
        seqs.set(node.nodeId, (seqs.get(node.nodeId) ?? 0) + 1);
        return { nodeId: node.nodeId, peerReport: { seq: seqs.get(node.nodeId), resync: false } };
      });
      return { status: 200, body: { nodes } };
    },
  });
  const dir = mkdtempSync(join(tmpdir(), "wgo-gw-peers-"));
  dirs.push(dir);
  for (const nodeId of ["node_big", "node_a", "node_b"]) mkdirSync(join(dir, "nodes", nodeId), { recursive: true });
  const ctx = { dir, agent: { api: api.url, credential: "agc_secret" } };
  const bodies = () => api!.requests.filter((r) => r.path === "/agents/me/report").map((r) => r.body);
  return { ctx, rows, forget, bodies };
}

const fields = (nodeId: string, extra: Record<string, unknown> = {}) => ({
  nodeId,
  appliedRoutingRevision: 7,
  appliedDnsRevision: null,
  error: null,
  ...extra,
});

describe("gateway agent peer reports", { timeout: 30_000 }, () => {
  it("a 9,999-peer node and two small ones: requests under the limit, probes once, then only what changed", async () => {
    const { ctx, rows, bodies } = await setup();
    const big = dumpPeers(9_999);
    const probes = [{ acrossNodeId: "node_x", target: "10.1.0.9", ok: true }];
    const nodes = () => [
      { nodeId: "node_big", fields: fields("node_big", { probes }), dump: { peers: big } },
      { nodeId: "node_a", fields: fields("node_a"), dump: { peers: big.slice(0, 3) } },
      { nodeId: "node_b", fields: fields("node_b"), dump: { peers: [] } },
    ];
    const answers = await sendNodeReports(ctx, nodes());
    const sent = bodies();
    expect(sent.length).toBeGreaterThan(1);
    for (const body of sent) expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(64 * 1024);
    // The small nodes ride in the first request with the big node's first page; probes only in its first page.
    expect(sent[0]!.nodes.map((node: any) => node.nodeId)).toEqual(["node_big", "node_a", "node_b"]);
    const bigEntries = sent.flatMap((body: any) => body.nodes.filter((node: any) => node.nodeId === "node_big"));
    expect(bigEntries.filter((entry: any) => entry.probes)).toHaveLength(1);
    expect(rows.get("node_big")!.size).toBe(9_999);
    expect(rows.get("node_a")!.size).toBe(3);
    expect(answers.get("node_big").peerReport).toEqual({ seq: bigEntries.length, resync: false });
    expect(JSON.parse(readFileSync(join(ctx.dir, "nodes", "node_big", "peer-report.json"), "utf8")).seq).toBe(bigEntries.length);

    // Next report: two of the big node's peers moved traffic; node_a lost a peer. One request.
    big[10]!.rxBytes += 1;
    big[9_000]!.txBytes += 1;
    const before = sent.length;
    await sendNodeReports(ctx, [...nodes().slice(0, 1), { ...nodes()[1]!, dump: { peers: big.slice(0, 2) } }, nodes()[2]!]);
    const next = bodies().slice(before);
    expect(next).toHaveLength(1);
    const [bigPage, aPage, bPage] = next[0]!.nodes.map((node: any) => node.peerReport);
    expect(bigPage.changed.map((entry: unknown[]) => entry[0])).toEqual([keyOf(10), keyOf(9_000)]);
    expect(aPage).toMatchObject({ changed: [], removed: [keyOf(2)] });
    expect(bPage).toMatchObject({ changed: [], removed: [] });
    expect(rows.get("node_big")!.get(keyOf(10))).toEqual([big[10]!.latestHandshake, big[10]!.rxBytes, big[10]!.txBytes]);
  });

  it("a node the server asks to resync sends a full report in the same round; the others go on", async () => {
    const { ctx, rows, forget, bodies } = await setup();
    const peers = dumpPeers(5);
    const nodes = [
      { nodeId: "node_a", fields: fields("node_a"), dump: { peers } },
      { nodeId: "node_b", fields: fields("node_b"), dump: { peers: peers.slice(0, 1) } },
    ];
    await sendNodeReports(ctx, nodes);
    forget.add("node_a");
    peers[0]!.rxBytes += 1;
    await sendNodeReports(ctx, nodes);
    const last = bodies().slice(-2);
    expect(last[0]!.nodes.map((node: any) => node.peerReport.base)).toEqual([1, 1]);
    expect(last[1]!.nodes).toEqual([expect.objectContaining({ nodeId: "node_a", peerReport: expect.objectContaining({ base: null }) })]);
    expect(rows.get("node_a")!.size).toBe(5);
  });

  it("a server from before peer reports gets the old lists", async () => {
    const { ctx, bodies } = await setup({ old: true });
    await sendNodeReports(ctx, [{ nodeId: "node_a", fields: fields("node_a"), dump: { peers: dumpPeers(1) } }]);
    expect(bodies().at(-1)!.nodes[0].peers).toEqual([
      { publicKey: keyOf(0), lastHandshakeAt: "2025-11-21T10:00:00.000Z", rxBytes: 5_000_000, txBytes: 9_000_000 },
    ]);
  });

  it("each peer's tuple carries the endpoint the interface holds for it (its address after NAT); a peer whose endpoint moved goes again", async () => {
    const { ctx, rows, bodies } = await setup();
    // None for the third; a link-local IPv6 peer's scoped endpoint means nothing elsewhere: none for the fifth.
    const endpoints = ["203.0.113.1:40000", "203.0.113.2:41000", null, "[2001:db8::4]:51820", "[fe80::5%eth0]:51820"];
    const peers = dumpPeers(5).map((peer, i) => ({ ...peer, endpoint: endpoints[i] }));
    await sendNodeReports(ctx, [{ nodeId: "node_a", fields: fields("node_a"), dump: { peers } }]);
    expect(bodies().at(-1)!.nodes[0].peerReport.changed).toEqual([
      [keyOf(0), 1_763_719_200, 5_000_000, 9_000_000, "203.0.113.1:40000"],
      [keyOf(1), 1_763_719_199, 5_000_001, 9_000_001, "203.0.113.2:41000"],
      [keyOf(2), 1_763_719_198, 5_000_002, 9_000_002],
      [keyOf(3), 1_763_719_197, 5_000_003, 9_000_003, "[2001:db8::4]:51820"],
      [keyOf(4), 1_763_719_196, 5_000_004, 9_000_004],
    ]);
    // The second peer's NAT gave it a new mapping; nothing else changed.
    peers[1]!.endpoint = "203.0.113.2:52000";
    await sendNodeReports(ctx, [{ nodeId: "node_a", fields: fields("node_a"), dump: { peers } }]);
    expect(bodies().at(-1)!.nodes[0].peerReport.changed).toEqual([[keyOf(1), 1_763_719_199, 5_000_001, 9_000_001, "203.0.113.2:52000"]]);
    expect(rows.get("node_a")!.get(keyOf(1))).toEqual([1_763_719_199, 5_000_001, 9_000_001, "203.0.113.2:52000"]);
  });

  it("a server from before issue 28 refuses the endpoints: the same round again without them, and later rounds send none", async () => {
    const { ctx, rows, bodies } = await setup({ preNat: true });
    const peers = dumpPeers(2).map((peer) => ({ ...peer, endpoint: "203.0.113.9:41641" }));
    await sendNodeReports(ctx, [{ nodeId: "node_a", fields: fields("node_a"), dump: { peers } }]);
    expect(bodies().at(-1)!.nodes[0].peerReport.changed).toEqual([
      [keyOf(0), 1_763_719_200, 5_000_000, 9_000_000],
      [keyOf(1), 1_763_719_199, 5_000_001, 9_000_001],
    ]);
    expect(rows.get("node_a")!.size).toBe(2);
    const sent = bodies().length;
    peers[0]!.rxBytes += 1;
    await sendNodeReports(ctx, [{ nodeId: "node_a", fields: fields("node_a"), dump: { peers } }]);
    expect(bodies().length).toBe(sent + 1);
    expect(bodies().at(-1)!.nodes[0].peerReport.changed).toEqual([[keyOf(0), 1_763_719_200, 5_000_001, 9_000_000]]);
  });
});
