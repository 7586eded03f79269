// A heartbeat's delta peer report costs D1 the same rows read at any network size: each reported key is
// checked against the network's nodes by one lookup of the (partial) key index. Before, the lookup did
// not use that index and scanned the network's nodes per key (1,363 rows read a beat at 10,000 nodes).
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
  const stats = async () => (await get(`/networks/${network.id}/writer`, admin.token)).body as { rowsRead: number };
  const before = await stats();
  const delta = await beat({
    base: full.body.peerReport.seq,
    changed: peers.map((p) => entry(p.publicKey as string, 2)),
    removed: [],
    more: false,
  });
  expect(delta.body.peerReport).toEqual({ seq: full.body.peerReport.seq + 1, resync: false });
  return (await stats()).rowsRead - before.rowsRead;
}

describe("rows read by a delta peer report", () => {
  it("are the same with 5 nodes and with 80 in the network", async () => {
    const small = await rowsReadByOneDelta(0);
    const large = await rowsReadByOneDelta(75);
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
  }, 120_000);
});
