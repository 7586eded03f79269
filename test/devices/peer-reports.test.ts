// Delta peer reports against the real Worker (docs/scale.md "Peer reports"): a device of a 1,600-node
// network heartbeats with the pages wgo builds (cli/peer-report.mjs), every one under the 64 KiB body
// limit, and /tunnels holds exactly what its interface shows after a full report, a delta and a resync.
import { describe, expect, it } from "vitest";
// @ts-expect-error cli/ is plain JavaScript without declarations (test/wgo/support/cli.ts loads it the same way, untyped)
import * as wgoReport from "../../cli/peer-report.mjs";
import { call, get } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import {
  createGateway,
  createGroup,
  createNetwork,
  enrolDevice,
  fakePublicKey,
  networkSetup,
  signInAdmin,
  type Session,
  unique,
} from "../helpers/factories";

type Counters = [number, number, number];
type Page = { base: number | null; changed: [string, ...Counters][]; removed: string[]; more: boolean };
const report = wgoReport as {
  countersOf(peers: { publicKey: string; latestHandshake: number; rxBytes: number; txBytes: number }[]): Map<string, Counters>;
  emptyReportState(): { seq: number | null; held: Map<string, Counters> };
  reportPeers(
    state: { seq: number | null; held: Map<string, Counters> },
    current: Map<string, Counters>,
    send: (page: Page) => Promise<{ seq: number | null; resync: boolean } | undefined>,
  ): Promise<{ state: { seq: number | null; held: Map<string, Counters> }; pages: Page[] }>;
};

const NODES = 1_600;
const beat = (deviceId: string, token: string, body: unknown) => call("POST", `/client/devices/${deviceId}/heartbeat`, { token, body });
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Every tunnel row the device's node reported, by peer key: [handshake seconds, rx, tx] and the peer's node. */
async function tunnelsOf(token: string, networkId: string, fromNodeId: string) {
  const rows = new Map<string, { counters: Counters; toNodeId: string | null }>();
  let cursor: string | null = null;
  do {
    const page: { body: { items: any[]; nextCursor: string | null } } = await get(
      `/tunnels?networkId=${networkId}&limit=200${cursor ? `&cursor=${cursor}` : ""}`,
      token,
    );
    for (const t of page.body.items.filter((item) => item.fromNodeId === fromNodeId)) {
      const handshake = t.lastHandshakeAt ? Date.parse(t.lastHandshakeAt) / 1000 : 0;
      rows.set(t.peerPublicKey, { counters: [handshake, t.rxBytes, t.txBytes], toNodeId: t.toNodeId });
    }
    cursor = page.body.nextCursor;
  } while (cursor);
  return rows;
}

/** Public keys of `count` new devices of the network: peers a report may name. */
async function peerKeys(admin: Session, networkId: string, count: number) {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) keys.push((await enrolDevice(admin, { networkId })).body.node.publicKey as string);
  return keys;
}

const countersOnly = (rows: Map<string, { counters: Counters }>) => new Map([...rows].map(([key, row]) => [key, row.counters]));

describe("delta peer reports of a device in a 1,600-node network", () => {
  it("the full report goes in pages under the body limit; deltas and a resync keep /tunnels exactly the interface", {
    timeout: 180_000,
  }, async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id, "10.240.0.0/21");
    const device = await enrolDevice(admin, { networkId: network.id });
    const keys: string[] = [];
    const nodeIds = new Map<string, string>();
    for (let wave = 0; wave < NODES / 40; wave++) {
      const created = await Promise.all(
        Array.from({ length: 40 }, () => {
          const publicKey = fakePublicKey();
          keys.push(publicKey);
          return call("POST", "/nodes", { token: admin.token, body: { networkId: network.id, name: unique("n"), publicKey } });
        }),
      );
      for (const answer of created) {
        expect(answer.status, answer.text).toBe(201);
        nodeIds.set(answer.body.publicKey, answer.body.id);
      }
    }

    // The device's interface: every other node a peer; 1,200 of them in use, 400 never handshaken.
    const at = nowSeconds();
    const dump = keys.map((publicKey, i) => ({
      publicKey,
      latestHandshake: i < 1_200 ? at - (i % 900) : 0,
      rxBytes: i < 1_200 ? 1_000_000_000 + i : 0,
      txBytes: i < 1_200 ? 7_000_000_000_000 + i : 0,
    }));
    const revision = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision;
    const bodies: number[] = [];
    const send = async (peerReport: Page) => {
      const body = { appliedRevision: revision, peerReport };
      bodies.push(new TextEncoder().encode(JSON.stringify(body)).length);
      const answer = await beat(device.deviceId, device.deviceToken, body);
      expect(answer.status, answer.text).toBe(200);
      return answer.body.peerReport;
    };

    const full = await report.reportPeers(report.emptyReportState(), report.countersOf(dump), send);
    expect(full.pages.length).toBeGreaterThan(1);
    expect(Math.max(...bodies)).toBeLessThan(64 * 1024);
    let tunnels = await tunnelsOf(admin.token, network.id, device.nodeId);
    expect(countersOnly(tunnels)).toEqual(report.countersOf(dump));
    expect(tunnels.size).toBe(1_200);
    expect(tunnels.get(keys[7]!)!.toNodeId).toBe(nodeIds.get(keys[7]!));
    expect((await get(`/networks/${network.id}/runtime-status`, admin.token)).body.routing.unreported).not.toContain(device.nodeId);

    // A beat later: three tunnels moved traffic, one peer left, one idle peer handshook: one small request.
    dump[0]!.rxBytes += 500;
    dump[600]!.latestHandshake = at + 30;
    dump[1_100]!.txBytes += 1;
    dump[1_400]!.latestHandshake = at + 31;
    const left = dump.splice(42, 1)[0]!;
    bodies.length = 0;
    const delta = await report.reportPeers(full.state, report.countersOf(dump), send);
    expect(delta.pages).toHaveLength(1);
    expect(delta.pages[0]!.changed).toHaveLength(4);
    expect(delta.pages[0]!.removed).toEqual([left.publicKey]);
    expect(bodies[0]).toBeLessThan(1_000);
    tunnels = await tunnelsOf(admin.token, network.id, device.nodeId);
    expect(countersOnly(tunnels)).toEqual(report.countersOf(dump));

    // The server loses the base (here: the old full form, sent by an old client of the same device):
    // the next delta is refused with resync and stores nothing; wgo's full report then rebuilds the rows.
    expect((await beat(device.deviceId, device.deviceToken, { appliedRevision: revision, peers: [] })).status).toBe(200);
    expect(await tunnelsOf(admin.token, network.id, device.nodeId)).toEqual(new Map());
    const stale = await beat(device.deviceId, device.deviceToken, {
      appliedRevision: revision,
      peerReport: { base: delta.state.seq, changed: [[keys[0], at, 1, 1]], removed: [] },
    });
    expect(stale.body.peerReport).toEqual({ seq: null, resync: true });
    expect(await tunnelsOf(admin.token, network.id, device.nodeId)).toEqual(new Map());
    const resynced = await report.reportPeers(delta.state, report.countersOf(dump), send);
    expect(resynced.pages[1]!.base).toBeNull();
    expect(countersOnly(await tunnelsOf(admin.token, network.id, device.nodeId))).toEqual(report.countersOf(dump));
  });
});

describe("peer report rules", () => {
  it("a paged full report keeps the old rows until its last page, then drops those it did not send", async () => {
    const { admin, network } = await networkSetup();
    const me = await enrolDevice(admin, { networkId: network.id });
    const [a, b, c] = (await peerKeys(admin, network.id, 3)) as [string, string, string];
    const at = nowSeconds();
    const send = (peerReport: object) => beat(me.deviceId, me.deviceToken, { appliedRevision: null, peerReport });
    // A key that is no node of the network gets no row: what a reporter holds stays bounded by the network.
    const first = await send({
      base: null,
      changed: [
        [a, at, 1, 1],
        [b, at, 2, 2],
        [fakePublicKey(), at, 9, 9],
      ],
    });
    expect(first.body.peerReport).toEqual({ seq: expect.any(Number), resync: false });
    const keysNow = async () => [...(await tunnelsOf(admin.token, network.id, me.nodeId)).keys()].sort();

    // A new full report, in two pages: after the first, b (not sent yet) still shows what it had.
    const page1 = await send({ base: null, changed: [[c, at, 3, 3]], more: true });
    expect(page1.body.peerReport.seq).toBe(first.body.peerReport.seq + 1);
    expect(await keysNow()).toEqual([a, b, c].sort());
    const page2 = await send({ base: page1.body.peerReport.seq, changed: [[a, at, 9, 9]] });
    expect(page2.body.peerReport.resync).toBe(false);
    expect(await keysNow()).toEqual([a, c].sort());
    expect((await tunnelsOf(admin.token, network.id, me.nodeId)).get(a)!.counters).toEqual([at, 9, 9]);

    // Deltas after it touch only what they name; a base from before is refused and changes nothing.
    await send({ base: page2.body.peerReport.seq, changed: [], removed: [c] });
    expect(await keysNow()).toEqual([a]);
    const refused = await send({ base: page1.body.peerReport.seq, changed: [[b, at, 5, 5]] });
    expect(refused.body).toMatchObject({ configChanged: expect.any(Boolean), peerReport: { seq: null, resync: true } });
    expect(await keysNow()).toEqual([a]);
    // Without a peer report the answer is as it always was.
    expect(Object.keys((await beat(me.deviceId, me.deviceToken, { appliedRevision: null })).body).sort()).toEqual([
      "configChanged",
      "desiredRevision",
    ]);
  });

  it("peers and peerReport together, bad tuples and the old list past the body limit are refused", async () => {
    const { admin, network } = await networkSetup();
    const me = await enrolDevice(admin, { networkId: network.id });
    const key = fakePublicKey();
    expectError(
      await beat(me.deviceId, me.deviceToken, { appliedRevision: null, peers: [], peerReport: { base: null, changed: [] } }),
      422,
      "VALIDATION_ERROR",
      ["peerReport"],
    );
    expectError(
      await beat(me.deviceId, me.deviceToken, { appliedRevision: null, peerReport: { base: null, changed: [[key, -1, 0, 0]] } }),
      422,
      "VALIDATION_ERROR",
      ["peerReport.changed.0.1"],
    );
    // The old form cannot carry a big interface: 1,000 entries are about 100 KiB, past the 64 KiB limit.
    const list = Array.from({ length: 1_000 }, () => ({ publicKey: key, lastHandshakeAt: null, rxBytes: 0, txBytes: 0 }));
    expectError(await beat(me.deviceId, me.deviceToken, { appliedRevision: null, peers: list }), 413, "payload_too_large");
  });

  it("a gateway agent's report follows the same rule, per node", async () => {
    const { admin, network } = await networkSetup();
    const gateway = await createGateway(admin);
    const issued = await call("POST", "/agents/enrolment-tokens", {
      token: admin.token,
      body: { kind: "gateway-daemon", gatewayId: gateway.id },
    });
    const agent = await call("POST", "/agents/enrol", { body: { token: issued.body.token, name: unique("agent"), version: "1" } });
    expect(agent.status, agent.text).toBe(201);
    const node = await call("POST", "/nodes", {
      token: admin.token,
      body: { networkId: network.id, name: unique("gw"), roles: ["gateway"], gatewayId: gateway.id, endpoint: "198.51.100.9:51820" },
    });
    expect(node.status, node.text).toBe(201);
    const revision = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision;
    const [a, b] = (await peerKeys(admin, network.id, 2)) as [string, string];
    const at = nowSeconds();
    const send = (peerReport: object) =>
      call("POST", "/agents/me/report", {
        token: agent.body.credential,
        body: { nodes: [{ nodeId: node.body.id, appliedRoutingRevision: revision, peerReport }] },
      });
    const full = await send({
      base: null,
      changed: [
        [a, at, 10, 20],
        [b, 0, 0, 64],
      ],
    });
    expect(full.status, full.text).toBe(200);
    const seq = full.body.nodes[0].peerReport.seq;
    expect(full.body.nodes[0]).toMatchObject({ nodeId: node.body.id, peerReport: { seq, resync: false } });
    const next = await send({ base: seq, changed: [[a, at, 11, 21]], removed: [b] });
    expect(next.body.nodes[0].peerReport).toEqual({ seq: seq + 1, resync: false });
    expect(countersOnly(await tunnelsOf(admin.token, network.id, node.body.id))).toEqual(new Map([[a, [at, 11, 21]]]));
    expect((await send({ base: seq, changed: [] })).body.nodes[0].peerReport).toEqual({ seq: null, resync: true });
  });
});
