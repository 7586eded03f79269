// A heartbeat's delta peer report costs the same rows read at any network size: each reported key is checked
// against the network's nodes by one lookup (once by D1's partial key index: before that, a scan of the
// network's nodes per key, 1,363 rows read a beat at 10,000 nodes). Since issue 30 the beat is stored in the
// network's object against the copy its writer holds: no D1 row read at all, and the object's rows read are
// the same at both sizes.
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { createNode, enrolDevice, networkSetup } from "../helpers/factories";

async function rowsReadByOneDelta(extraNodes: number) {
  const { admin, network } = await networkSetup();
  // Nodes made before the reported ones come first in the network's (network, created) index: a scan for a
  // key passes them all.
  for (let i = 0; i < extraNodes; i++) await createNode(admin, network.id);
  const peers = [];
  for (let i = 0; i < 4; i++) peers.push(await createNode(admin, network.id));
  const device = await enrolDevice(admin, { networkId: network.id });
  const beat = (peerReport: unknown) =>
    call("POST", `/client/devices/${device.deviceId}/heartbeat`, {
      token: device.deviceToken,
      body: { appliedRevision: null, peerReport },
    });
  const entry = (publicKey: string, bytes: number) => [publicKey, 1_700_000_000, bytes, bytes];
  const full = await beat({ base: null, changed: peers.map((p) => entry(p.publicKey as string, 1)), removed: [], more: false });
  expect(full.status).toBe(200);
  const stats = async () => (await get(`/networks/${network.id}/writer`, admin.token)).body as { rowsRead: number; hotRowsRead: number };
  const before = await stats();
  const delta = await beat({
    base: full.body.peerReport.seq,
    changed: peers.map((p) => entry(p.publicKey as string, 2)),
    removed: [],
    more: false,
  });
  expect(delta.body.peerReport).toEqual({ seq: full.body.peerReport.seq + 1, resync: false });
  const after = await stats();
  return { d1: after.rowsRead - before.rowsRead, object: after.hotRowsRead - before.hotRowsRead };
}

describe("rows read by a delta peer report (D1 and the network object's own)", () => {
  it("are the same with 5 nodes and with 80 in the network", async () => {
    const small = await rowsReadByOneDelta(0);
    const large = await rowsReadByOneDelta(75);
    expect(small.d1).toBe(0);
    expect(large.d1).toBe(0);
    expect(small.object).toBeGreaterThan(0);
    expect(large.object).toBe(small.object);
  }, 120_000);
});
