// Runtime status judges a node by the config it runs, not by the revision number alone (issue 47): a revision
// that changed nothing for a node leaves it in sync; one that changed its peers makes it lagging. A device that
// never reports (a config file in a WireGuard app) runs the config it was issued once a peer sees a handshake.
import { describe, expect, it } from "vitest";
import { call, get, put } from "../helpers/api";
import { createNode, enrolDevice, networkSetup } from "../helpers/factories";

const beat = (device: { deviceId: string; deviceToken: string }, body: Record<string, unknown>) =>
  call("POST", `/client/devices/${device.deviceId}/heartbeat`, { token: device.deviceToken, body });

describe("runtime status: lagging means the node's own config moved on", () => {
  it("a revision that changes nothing for a device leaves it in sync; a new peer makes it lagging", async () => {
    const { admin, network } = await networkSetup();
    const laptop = await enrolDevice(admin, { networkId: network.id });
    const other = await enrolDevice(admin, { networkId: network.id });
    const status = async () => (await get(`/networks/${network.id}/runtime-status`, admin.token)).body.routing;
    const applied = (await status()).desiredRevision as number;
    for (const device of [laptop, other]) expect((await beat(device, { appliedRevision: applied })).status).toBe(200);
    expect(await status()).toMatchObject({ desiredRevision: applied, appliedRevision: applied, inSync: true, lagging: [] });

    // Another device's routing preference: a routing revision that changes neither device's config (no policy).
    const preference = await put(`/devices/${other.deviceId}/routing-preferences`, { mode: "none" }, admin.token);
    expect(preference.status).toBe(200);
    const moved = await status();
    expect(moved.desiredRevision, "the preference moved the routing revision").toBeGreaterThan(applied);
    expect(moved, "runs the config of the desired revision").toMatchObject({
      appliedRevision: moved.desiredRevision,
      inSync: true,
      lagging: [],
    });

    // A new peer changes the laptop's own config: now it is behind.
    await createNode(admin, network.id);
    const behind = await status();
    expect(behind.desiredRevision).toBeGreaterThan(moved.desiredRevision);
    expect(behind.inSync).toBe(false);
    expect(behind.lagging.sort()).toEqual([laptop.nodeId, other.nodeId].sort());
    // Once they apply the new revision, neither lags (the new node itself has not reported yet).
    for (const device of [laptop, other]) await beat(device, { appliedRevision: behind.desiredRevision });
    expect(await status()).toMatchObject({ lagging: [], appliedRevision: null });
  });

  it("a device with no report of its own is unreported until a peer sees it, then runs its issued config", async () => {
    const { admin, network } = await networkSetup();
    const laptop = await enrolDevice(admin, { networkId: network.id });
    const phone = await enrolDevice(admin, { networkId: network.id });
    const phoneKey = (await get(`/nodes/${phone.nodeId}`, admin.token)).body.publicKey as string;
    const status = async () => (await get(`/networks/${network.id}/runtime-status`, admin.token)).body.routing;
    const revision = (await status()).desiredRevision as number;
    await beat(laptop, { appliedRevision: revision, peers: [{ publicKey: phoneKey, lastHandshakeAt: null, rxBytes: 0, txBytes: 0 }] });
    expect(await status(), "no handshake yet: nothing says the phone runs anything").toMatchObject({
      unreported: [phone.nodeId],
      inSync: false,
    });

    await beat(laptop, {
      appliedRevision: revision,
      peers: [{ publicKey: phoneKey, lastHandshakeAt: new Date().toISOString(), rxBytes: 100, txBytes: 200 }],
    });
    expect(await status(), "the laptop saw a handshake with the phone's key").toMatchObject({
      unreported: [],
      lagging: [],
      inSync: true,
      appliedRevision: revision,
    });

    // A new peer: the phone's file is out of date, and the status says so.
    await createNode(admin, network.id);
    const after = await status();
    expect(after.lagging).toEqual(expect.arrayContaining([phone.nodeId]));
    expect(after.inSync).toBe(false);
  });
});
