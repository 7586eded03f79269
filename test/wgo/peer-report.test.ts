// Delta peer reports (cli/peer-report.mjs): what a device of a 10,000-node network sends. Each page's
// body stays under the server's 64 KiB limit; after a full report only what changed goes; idle peers never.
import { describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";

const { accepted, BODY_LIMIT_BYTES, countersOf, emptyReportState, nextPage, reportPeers } = cli.peerReport;

/** A distinct 44-character WireGuard-shaped key per index. */
const keyOf = (i: number) => `${i.toString(36).padStart(8, "0")}${"A".repeat(35)}=`;

/** `wg show dump` peers of a full-mesh device: `active` of them with a handshake and traffic, the rest never. */
function meshPeers(count: number, active: number, at = 1_763_719_200) {
  return Array.from({ length: count }, (_, i) => ({
    publicKey: keyOf(i),
    latestHandshake: i < active ? at - i : 0,
    // Worst-case counters: 13 digits each (terabytes), so the byte budget is tested at its widest.
    rxBytes: i < active ? 1_234_567_890_123 + i : 0,
    txBytes: i < active ? 9_876_543_210_987 - i : 0,
  }));
}

/** The body `wgo heartbeat` sends for one page, as the server measures it. */
const bodyBytes = (peerReport: unknown) => new TextEncoder().encode(JSON.stringify({ appliedRevision: 123_456, peerReport })).length;

/** A server that holds what it accepted, following the Worker's rule (operations/peer-reports.ts). */
function fakeServer() {
  const server = { seq: null as number | null, rows: new Map<string, number[]>(), bodies: [] as number[], forget: false };
  const send = async (page: { base: number | null; changed: [string, number, number, number][]; removed: string[] }) => {
    server.bodies.push(bodyBytes(page));
    if (server.forget || (page.base !== null && page.base !== server.seq)) {
      server.forget = false;
      return { seq: null, resync: true };
    }
    if (page.base === null) server.rows.clear();
    for (const [key, ...counters] of page.changed) server.rows.set(key, counters);
    for (const key of page.removed) server.rows.delete(key);
    server.seq = (server.seq ?? 0) + 1;
    return { seq: server.seq, resync: false };
  };
  return { server, send };
}

describe("peer reports of a 10,000-node network", () => {
  it("a full report of 9,999 peers, every one active, goes in pages that each fit the body limit, and the server ends up with all of them", async () => {
    const current = countersOf(meshPeers(9_999, 9_999));
    const { server, send } = fakeServer();
    const done = await reportPeers(emptyReportState(), current, send);
    expect(done.pages.length).toBeGreaterThan(1);
    expect(done.pages.length).toBeLessThanOrEqual(20);
    expect(Math.max(...server.bodies)).toBeLessThan(BODY_LIMIT_BYTES);
    expect(done.pages[0]!.base).toBeNull();
    expect(done.pages.slice(0, -1).every((page: { more: boolean }) => page.more)).toBe(true);
    expect(done.pages.at(-1)!.more).toBe(false);
    expect(server.rows.size).toBe(9_999);
    expect(done.state.held.size).toBe(9_999);
  });

  it("idle peers are never sent; after the full report a beat sends only what changed and what left", async () => {
    const peers = meshPeers(9_999, 40);
    const { server, send } = fakeServer();
    const first = await reportPeers(emptyReportState(), countersOf(peers), send);
    expect(first.pages).toHaveLength(1);
    expect(first.pages[0]!.changed).toHaveLength(40);
    expect(server.bodies[0]).toBeLessThan(4_000);

    // Three peers moved traffic, one peer left the interface, one idle peer handshook for the first time.
    peers[0]!.rxBytes += 100;
    peers[5]!.latestHandshake += 120;
    peers[7]!.txBytes += 1;
    peers.splice(9, 1);
    peers[500]!.latestHandshake = 1_763_719_300;
    const second = await reportPeers(first.state, countersOf(peers), send);
    expect(second.pages).toEqual([
      {
        base: first.state.seq,
        changed: [
          [keyOf(0), peers[0]!.latestHandshake, peers[0]!.rxBytes, peers[0]!.txBytes],
          [keyOf(5), peers[5]!.latestHandshake, peers[5]!.rxBytes, peers[5]!.txBytes],
          [keyOf(7), peers[7]!.latestHandshake, peers[7]!.rxBytes, peers[7]!.txBytes],
          [keyOf(501), 1_763_719_300, 0, 0],
        ],
        removed: [keyOf(9)],
        more: false,
      },
    ]);
    expect(server.rows.size).toBe(40);
    expect(server.rows.get(keyOf(501))).toEqual([1_763_719_300, 0, 0]);

    // Nothing changed: an empty page, a few dozen bytes.
    const third = await reportPeers(second.state, countersOf(peers), send);
    expect(third.pages).toEqual([{ base: second.state.seq, changed: [], removed: [], more: false }]);
    expect(server.bodies.at(-1)).toBeLessThan(100);
  });

  it("when the server asks for a resync, the same beat sends a full report and the server holds exactly the interface", async () => {
    const peers = meshPeers(2_000, 1_500);
    const { server, send } = fakeServer();
    const first = await reportPeers(emptyReportState(), countersOf(peers), send);
    server.forget = true;
    peers.splice(0, 10);
    const again = await reportPeers(first.state, countersOf(peers), send);
    expect(again.resynced).toBe(true);
    expect(again.pages[1]!.base).toBeNull();
    expect([...server.rows.keys()].sort()).toEqual([...countersOf(peers).keys()].sort());
    expect(Math.max(...server.bodies)).toBeLessThan(BODY_LIMIT_BYTES);
  });

  it("removals of many peers at once are paged too, and a page never mixes in what the server did not accept", () => {
    const state = accepted(emptyReportState(), nextPage(emptyReportState(), countersOf(meshPeers(1_500, 1_500))), 1);
    const held = state.held.size;
    const page = nextPage(state, new Map());
    expect(page.changed).toEqual([]);
    expect(page.removed).toHaveLength(held);
    expect(bodyBytes(page)).toBeLessThan(BODY_LIMIT_BYTES);
    // The first page held only part of the 1,500 (more: true): its state has only what was accepted.
    expect(held).toBeLessThan(1_500);
  });
});
