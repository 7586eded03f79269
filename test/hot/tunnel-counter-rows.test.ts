// A beat writes a bounded number of rows in the network's object whatever its tunnels (issue 42): the tunnels'
// moving figures go into their reporter's counter slots (objects/network/hot/tunnel-counters.ts, 256 tunnels a row),
// a tunnel's own row only when it is new or its endpoint moved, and /tunnels still shows every figure as last sent.
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { createGroup, createNetwork, enrolDevice, fakePublicKey, signInAdmin, type Session, unique } from "../helpers/factories";

type Change = [string, number, number, number, string?];
const beat = (device: { deviceId: string; deviceToken: string }, body: unknown) =>
  call("POST", `/client/devices/${device.deviceId}/heartbeat`, { token: device.deviceToken, body });

/** `count` nodes of the network (peers a report may name), 40 at a time; their public keys. */
async function peerKeys(admin: Session, networkId: string, count: number) {
  const keys: string[] = [];
  for (let done = 0; done < count; done += 40) {
    const created = await Promise.all(
      Array.from({ length: Math.min(40, count - done) }, () =>
        call("POST", "/nodes", { token: admin.token, body: { networkId, name: unique("n"), publicKey: fakePublicKey() } }),
      ),
    );
    for (const answer of created) {
      expect(answer.status, answer.text).toBe(201);
      keys.push(answer.body.publicKey);
    }
  }
  return keys;
}

/** The device's tunnel rows on /tunnels, by peer key: [handshake seconds, rx, tx, endpoint]. */
async function tunnelsOf(admin: Session, networkId: string, fromNodeId: string) {
  const rows = new Map<string, [number, number, number, string | null]>();
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page: { body: { items: any[]; nextCursor: string | null } } = await get(
      `/tunnels?networkId=${networkId}&limit=200${cursor ? `&cursor=${cursor}` : ""}`,
      admin.token,
    );
    for (const t of page.body.items.filter((item: { fromNodeId: string }) => item.fromNodeId === fromNodeId)) {
      rows.set(t.peerPublicKey, [Date.parse(t.lastHandshakeAt) / 1000, t.rxBytes, t.txBytes, t.endpoint]);
    }
    cursor = page.body.nextCursor;
  }
  return rows;
}

const hotRowsWritten = async (admin: Session, networkId: string) =>
  (await get(`/networks/${networkId}/writer`, admin.token)).body.hotRowsWritten as number;

describe("a heartbeat's rows in the network's object", () => {
  it.each([
    { tunnels: 60, slots: 1 },
    { tunnels: 300, slots: 2 },
  ])(
    "$tunnels tunnels whose counters all move: $slots slot row(s) and the node's row a beat, /tunnels exact",
    { timeout: 120_000 },
    async ({ tunnels, slots }) => {
      const admin = await signInAdmin();
      const network = await createNetwork(admin, (await createGroup(admin)).id, "10.241.0.0/22");
      const device = await enrolDevice(admin, { networkId: network.id });
      const keys = await peerKeys(admin, network.id, tunnels);
      const at = Math.floor(Date.now() / 1000);
      const sent = (round: number): Change[] =>
        keys.map((key, i) => [key, at - 100 + round * 30, 1_000 * round + i, 2_000 * round + i, `198.51.100.${1 + (i % 200)}:51820`]);
      const expected = (round: number) => new Map(sent(round).map(([key, hs, rx, tx, endpoint]) => [key, [hs, rx, tx, endpoint ?? null]]));

      // The first, full report writes every tunnel's row (they are new) and its slots.
      let answer = await beat(device, { appliedRevision: null, peerReport: { base: null, changed: sent(0), removed: [] } });
      expect(answer.status, answer.text).toBe(200);
      let seq = answer.body.peerReport.seq as number;
      expect(await tunnelsOf(admin, network.id, device.nodeId)).toEqual(expected(0));

      // Steady beats: every counter and handshake moved, no endpoint did.
      for (let round = 1; round <= 3; round++) {
        const before = await hotRowsWritten(admin, network.id);
        answer = await beat(device, { appliedRevision: null, peerReport: { base: seq, changed: sent(round), removed: [] } });
        expect(answer.status, answer.text).toBe(200);
        seq = answer.body.peerReport.seq;
        // The node's row and its slot rows (reads of the writer's stats write nothing).
        expect(await hotRowsWritten(admin, network.id)).toBe(before + 1 + slots);
        expect(await tunnelsOf(admin, network.id, device.nodeId)).toEqual(expected(round));
      }

      // One peer's endpoint moved and one peer left: its row and the slots, and the removed peer's row goes.
      const moved = sent(4).slice(0, 2);
      moved[0]![4] = "203.0.113.9:41000";
      const before = await hotRowsWritten(admin, network.id);
      answer = await beat(device, { appliedRevision: null, peerReport: { base: seq, changed: [moved[0]], removed: [keys[1]] } });
      expect(answer.status, answer.text).toBe(200);
      const shown = await tunnelsOf(admin, network.id, device.nodeId);
      expect(shown.size).toBe(tunnels - 1);
      expect(shown.has(keys[1]!)).toBe(false);
      expect(shown.get(keys[0]!)).toEqual([moved[0]![1], moved[0]![2], moved[0]![3], "203.0.113.9:41000"]);
      expect(shown.get(keys[2]!)).toEqual(expected(3).get(keys[2]!));
      // The node's row, the moved tunnel's row, the removed one's (and its index entries), and the slot each was in.
      expect(await hotRowsWritten(admin, network.id)).toBeLessThanOrEqual(before + 1 + 1 + 3 + slots);
    },
  );
});
