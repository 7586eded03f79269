// A node that leaves takes what it reported with it: its hot row and tunnel rows go from the network's object
// in the write that removes it, so /tunnels never lists a removed reporter and the stats count no stale row.
import { describe, expect, it } from "vitest";
import { call, del, get } from "../helpers/api";
import { enrolDevice, gatewayNetwork, signInAdmin } from "../helpers/factories";

const beat = (deviceId: string, token: string, body: unknown) => call("POST", `/client/devices/${deviceId}/heartbeat`, { token, body });

describe("hot state of a removed node", () => {
  it("goes with the node: its tunnels leave /tunnels, and tunnels that led to it name no node", async () => {
    const admin = await signInAdmin();
    const { network } = await gatewayNetwork(admin, 0);
    const leaving = await enrolDevice(admin, { networkId: network.id });
    const staying = await enrolDevice(admin, { networkId: network.id });
    const now = new Date().toISOString();
    const tunnelTo = (device: typeof leaving) => ({
      publicKey: device.body.node.publicKey,
      lastHandshakeAt: now,
      rxBytes: 10,
      txBytes: 20,
    });
    expect((await beat(leaving.deviceId, leaving.deviceToken, { appliedRevision: null, peers: [tunnelTo(staying)] })).status).toBe(200);
    expect((await beat(staying.deviceId, staying.deviceToken, { appliedRevision: null, peers: [tunnelTo(leaving)] })).status).toBe(200);
    const listed = async () =>
      (await get(`/tunnels?networkId=${network.id}`, admin.token)).body.items as { fromNodeId: string; toNodeId: string | null }[];
    expect((await listed()).map((row) => [row.fromNodeId, row.toNodeId]).sort()).toEqual(
      [
        [leaving.nodeId, staying.nodeId],
        [staying.nodeId, leaving.nodeId],
      ].sort(),
    );

    expect((await del(`/devices/${leaving.deviceId}`, admin.token)).status).toBe(204);
    expect(await listed()).toEqual([expect.objectContaining({ fromNodeId: staying.nodeId, toNodeId: null })]);
    // The staying device's next full report, without that peer, clears the row that led to it.
    const late = await beat(staying.deviceId, staying.deviceToken, { appliedRevision: null, peers: [] });
    expect(late.status).toBe(200);
    expect(await listed()).toEqual([]);
  });
});
