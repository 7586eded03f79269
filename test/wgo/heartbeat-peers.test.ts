// `wgo heartbeat` on a device with a 10,000-node network's interface: what it sends, beat after beat,
// stays under the server's 64 KiB body limit; only what changed goes; the server's resync and a server
// from before peer reports are followed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runWgo, tempHome } from "./support/cli.ts";
import { enrolLaptop, PEER_KEY, startDeviceApi } from "./support/device-api.ts";
import { fakeHost } from "./support/fake-system.ts";

const BODY_LIMIT = 64 * 1024;
const keyOf = (i: number) => `${i.toString(36).padStart(8, "0")}${"B".repeat(35)}=`;

interface Peer {
  key: string;
  handshake: number;
  rx: number;
  tx: number;
}

/** 9,999 peers: the gateway (with traffic), `active` more with traffic, the rest never handshaken. */
function mesh(active: number): Peer[] {
  return [
    { key: PEER_KEY, handshake: 1_763_719_200, rx: 1234, tx: 5678 },
    ...Array.from({ length: 9_998 }, (_, i) => ({
      key: keyOf(i),
      handshake: i < active ? 1_763_719_000 + i : 0,
      rx: i < active ? 1_000_000_000 + i : 0,
      tx: i < active ? 2_000_000_000 + i : 0,
    })),
  ];
}

const dump = (peers: Peer[]) =>
  `privkey\tpubkey\t51820\toff\n${peers.map((p, i) => `${p.key}\t(none)\t(none)\t10.64.${i >> 8}.${i & 255}/32\t${p.handshake}\t${p.rx}\t${p.tx}\toff`).join("\n")}\n`;

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
  await wgo(["up", "--name", "laptop", "--netns", "ns1", "--interface", "wg7"]);
  const setPeers = (peers: Peer[]) => {
    host.links.get("wg7")!.dump = dump(peers);
  };
  const beat = async () => {
    const before = api.state.heartbeats.length;
    const result = await wgo(["heartbeat", "--name", "laptop", "--once"]);
    expect(result.code, `${result.stderr}${result.stdout}`).toBe(0);
    return { result, bodies: api.state.heartbeats.slice(before) };
  };
  return { api, home, setPeers, beat };
}

const sizeOf = (body: unknown) => Buffer.byteLength(JSON.stringify(body));
const rowsOf = (peers: Peer[]) => new Map(peers.filter((p) => p.handshake || p.rx || p.tx).map((p) => [p.key, [p.handshake, p.rx, p.tx]]));

// 10,000-line dumps parsed and diffed per beat, on shared cores: give them time.
describe("wgo heartbeat from a device of a 10,000-node network", { timeout: 30_000 }, () => {
  it("every peer active: all of them in pages under the body limit; then only the peers that changed", async () => {
    const { api, setPeers, beat } = await setup();
    const peers = mesh(9_998);
    setPeers(peers);
    const first = await beat();
    expect(first.bodies.length).toBeGreaterThan(1);
    for (const body of first.bodies) expect(sizeOf(body)).toBeLessThan(BODY_LIMIT);
    // `wgo up` sent the full report (no peer had traffic yet): this beat builds on its seq, page after page.
    expect(first.bodies[0].peerReport.base).toBe(1);
    expect(first.result.json[0].reported).toMatchObject({ form: "delta", full: false, changed: 9_999, removed: 0 });
    expect(api.state.peerRows).toEqual(rowsOf(peers));

    for (const i of [3, 4_000, 9_000]) peers[i]!.rx += 4096;
    peers.splice(20, 1);
    setPeers(peers);
    const second = await beat();
    expect(second.bodies).toHaveLength(1);
    expect(second.bodies[0].peerReport).toMatchObject({ base: api.state.peerSeq! - 1, removed: [keyOf(19)], more: false });
    expect(second.bodies[0].peerReport.changed.map((entry: unknown[]) => entry[0])).toEqual([keyOf(2), keyOf(3_999), keyOf(8_999)]);
    expect(api.state.peerRows).toEqual(rowsOf(peers));
  });

  it("a real mesh device (50 tunnels in use, 9,949 idle): one small request a beat; the server's resync is followed at once", async () => {
    const { api, home, setPeers, beat } = await setup();
    const peers = mesh(49);
    setPeers(peers);
    const first = await beat();
    expect(first.bodies).toHaveLength(1);
    expect(sizeOf(first.bodies[0])).toBeLessThan(5_000);
    expect(first.bodies[0].peerReport.changed).toHaveLength(50);
    const held = JSON.parse(readFileSync(join(home, "devices", "laptop.peerreport"), "utf8"));
    expect(held.seq).toBe(api.state.peerSeq);

    // The server lost its base (another reporter, a lost answer): it answers resync, wgo starts over.
    api.state.peerSeq = 99;
    api.state.peerRows.clear();
    const second = await beat();
    expect(second.bodies.map((body) => body.peerReport.base)).toEqual([held.seq, null]);
    expect(second.result.json[0].reported).toMatchObject({ full: true, changed: 50 });
    expect(api.state.peerRows).toEqual(rowsOf(peers));
  });

  it("a server from before peer reports (422 on the field): the old list, as wgo sent it before", async () => {
    const { api, setPeers, beat } = await setup();
    api.state.peerReports = false;
    setPeers(mesh(2).slice(0, 5));
    const { bodies, result } = await beat();
    expect(bodies).toHaveLength(2);
    expect(bodies[1].peers).toHaveLength(5);
    expect(bodies[1].peers[0]).toEqual({ publicKey: PEER_KEY, lastHandshakeAt: "2025-11-21T10:00:00.000Z", rxBytes: 1234, txBytes: 5678 });
    expect(result.json[0].reported).toEqual({ form: "list", pages: 1, changed: 5, removed: 0, full: true });
  });
});
