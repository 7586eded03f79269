import { describe, expect, it } from "vitest";
import { call, get, post, put } from "../helpers/api";
import {
  createGroup,
  createNetwork,
  createUser,
  enrolDevice,
  gatewayNetwork,
  signInAdmin,
  type Enrolled,
  networkSetup,
} from "../helpers/factories";
import { expectError } from "../helpers/expect-error";

const beat = (deviceId: string, token: string, body: unknown) => call("POST", `/client/devices/${deviceId}/heartbeat`, { token, body });

describe("device config and heartbeat", () => {
  it("the device's own credential fetches its config and reports; the owner's token works too", async () => {
    const { admin, network } = await networkSetup();
    const a = await enrolDevice(admin, { networkId: network.id });
    const b = await enrolDevice(admin, { networkId: network.id });
    const byDevice = await call("POST", `/client/devices/${a.deviceId}/config`, { token: a.deviceToken });
    expect(byDevice.status).toBe(200);
    expect(byDevice.body.deviceId).toBe(a.deviceId);
    expect(byDevice.body.config.peers.map((p: { nodeId: string }) => p.nodeId)).toEqual([b.nodeId]);
    expect((await call("POST", `/client/devices/${a.deviceId}/config`, { token: admin.token })).status).toBe(200);
    // One device's credential is no key to another device, nor to user routes.
    expectError(await call("POST", `/client/devices/${b.deviceId}/config`, { token: a.deviceToken }), 404, "not_found");
    expectError(await get("/users/me", a.deviceToken), 401, "unauthorized");
    expectError(await get(`/networks/${network.id}`, a.deviceToken), 401, "unauthorized");
  });

  it("a heartbeat's peers replace what the device reported before; omitting peers leaves them", async () => {
    const { admin, network } = await networkSetup();
    const [me, b, c] = [
      await enrolDevice(admin, { networkId: network.id }),
      await enrolDevice(admin, { networkId: network.id }),
      await enrolDevice(admin, { networkId: network.id }),
    ];
    const keyOf = async (nodeId: string) => (await get(`/nodes/${nodeId}`, admin.token)).body.publicKey as string;
    const peer = async (nodeId: string) => ({ publicKey: await keyOf(nodeId), lastHandshakeAt: null, rxBytes: 1, txBytes: 2 });
    const reported = async () =>
      (await get(`/tunnels?networkId=${network.id}`, admin.token)).body.items
        .filter((t: { fromNodeId: string }) => t.fromNodeId === me.nodeId)
        .map((t: { toNodeId: string }) => t.toNodeId)
        .sort();
    expect(
      (await beat(me.deviceId, me.deviceToken, { appliedRevision: null, peers: [await peer(b.nodeId), await peer(c.nodeId)] })).status,
    ).toBe(200);
    expect(await reported()).toEqual([b.nodeId, c.nodeId].sort());
    expect((await beat(me.deviceId, me.deviceToken, { appliedRevision: null })).status).toBe(200);
    expect(await reported()).toEqual([b.nodeId, c.nodeId].sort());
    expect((await beat(me.deviceId, me.deviceToken, { appliedRevision: null, peers: [await peer(c.nodeId)] })).status).toBe(200);
    expect(await reported()).toEqual([c.nodeId]);
  });

  it("40 devices beating at once on one network: every heartbeat is recorded (in the network object's own storage)", async () => {
    const { admin, network } = await networkSetup();
    const fleet: Enrolled[] = [];
    for (let i = 0; i < 40; i++) fleet.push(await enrolDevice(admin, { networkId: network.id }));
    const revision = fleet.at(-1)!.body.config.routingRevision;
    const answers = await Promise.all(
      fleet.map((device, i) =>
        beat(device.deviceId, device.deviceToken, {
          appliedRevision: revision,
          endpoint: `203.0.113.${i + 1}:51820`,
          peers: [{ publicKey: fleet[(i + 1) % 40]!.body.node.publicKey, lastHandshakeAt: null, rxBytes: i, txBytes: i }],
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(fleet.map(() => 200));
    const listed = (await get(`/devices?networkId=${network.id}&limit=200`, admin.token)).body.items;
    expect(
      listed.filter((d: { status: string; appliedRevision: number }) => d.status === "online" && d.appliedRevision === revision),
    ).toHaveLength(40);
    expect((await get(`/tunnels?networkId=${network.id}&limit=200`, admin.token)).body.items).toHaveLength(40);
    expect((await get(`/networks/${network.id}/runtime-status`, admin.token)).body.routing).toMatchObject({ inSync: true, lagging: [] });
  });

  it("heartbeats record the applied revision; configChanged follows the desired revision; runtime status agrees", async () => {
    const admin = await signInAdmin();
    const {
      network,
      hops: [gw],
    } = await gatewayNetwork(admin, 1);
    const device = await enrolDevice(admin, { networkId: network.id });
    const desired = device.body.config.routingRevision;
    const inSync = await beat(device.deviceId, device.deviceToken, { appliedRevision: desired });
    expect(inSync.body).toEqual({ desiredRevision: desired, configChanged: false });
    await call("PATCH", `/nodes/${gw!.id}`, { token: admin.token, body: { lastSeenAt: undefined, endpoint: "198.51.100.77:51820" } });
    const status = (await get(`/networks/${network.id}/runtime-status`, admin.token)).body.routing;
    expect(status).toMatchObject({
      desiredRevision: desired + 1,
      appliedRevision: null,
      inSync: false,
      lagging: [device.nodeId],
      unreported: [gw!.id],
    });
    const behind = await beat(device.deviceId, device.deviceToken, { appliedRevision: desired });
    expect(behind.body).toEqual({ desiredRevision: desired + 1, configChanged: true });
    const ahead = await beat(device.deviceId, device.deviceToken, { appliedRevision: desired + 5 });
    expectError(ahead, 400, "validation_error");
    expect((await get(`/devices/${device.deviceId}`, admin.token)).body).toMatchObject({ status: "online", appliedRevision: desired });
  });

  it("peer counters feed /tunnels with states by handshake age, filterable by network and node", async () => {
    const { admin, network } = await networkSetup();
    const a = await enrolDevice(admin, { networkId: network.id });
    const b = await enrolDevice(admin, { networkId: network.id });
    const c = await enrolDevice(admin, { networkId: network.id });
    const recent = new Date(Date.now() - 30_000).toISOString();
    const old = new Date(Date.now() - 400_000).toISOString();
    const report = await beat(a.deviceId, a.deviceToken, {
      appliedRevision: 3,
      endpoint: "203.0.113.5:40000",
      peers: [
        { publicKey: b.body.node.publicKey, lastHandshakeAt: recent, rxBytes: 1200, txBytes: 3400 },
        { publicKey: c.body.node.publicKey, lastHandshakeAt: old, rxBytes: 1, txBytes: 2 },
      ],
    });
    expect(report.status).toBe(200);
    await beat(a.deviceId, a.deviceToken, {
      appliedRevision: 3,
      peers: [
        { publicKey: b.body.node.publicKey, lastHandshakeAt: recent, rxBytes: 5000, txBytes: 6000 },
        { publicKey: c.body.node.publicKey, lastHandshakeAt: old, rxBytes: 1, txBytes: 2 },
      ],
    });
    const tunnels = (await get(`/tunnels?networkId=${network.id}`, admin.token)).body.items;
    expect(tunnels).toHaveLength(2);
    expect(tunnels.find((t: { toNodeId: string }) => t.toNodeId === b.nodeId)).toMatchObject({
      fromNodeId: a.nodeId,
      state: "up",
      rxBytes: 5000,
      txBytes: 6000,
    });
    expect(tunnels.find((t: { toNodeId: string }) => t.toNodeId === c.nodeId)).toMatchObject({ state: "stale" });
    expect((await get(`/tunnels?nodeId=${c.nodeId}`, admin.token)).body.items).toHaveLength(1);
    expect((await get(`/devices/${a.deviceId}`, admin.token)).body.reportedEndpoint).toBe("203.0.113.5:40000");
    const stranger = await createUser(admin);
    expect((await get(`/tunnels?networkId=${network.id}`, stranger.token)).body.items).toEqual([]);
  });

  it("heartbeat bodies are validated (422)", async () => {
    const { admin, network } = await networkSetup();
    const a = await enrolDevice(admin, { networkId: network.id });
    const bad = await beat(a.deviceId, a.deviceToken, {
      appliedRevision: -1,
      peers: [{ publicKey: "x", lastHandshakeAt: "yesterday", rxBytes: -5, txBytes: 1 }],
    });
    expectError(bad, 422, "VALIDATION_ERROR");
    expect(bad.body.error.fields.map((f: { path: string }) => f.path).sort()).toEqual([
      "appliedRevision",
      "peers.0.lastHandshakeAt",
      "peers.0.publicKey",
      "peers.0.rxBytes",
    ]);
  });
});

describe("/devices", () => {
  it("owners list, rename and delete their devices; others see 404; deleting frees the node and the credential", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id);
    await post(`/groups/${group.id}/members`, { userId: owner.userId, role: "member" }, admin.token);
    const other = await createUser(admin);
    await post(`/groups/${group.id}/members`, { userId: other.userId, role: "member" }, admin.token);
    const device = await enrolDevice(owner, { networkId: network.id });
    expect((await get("/devices", owner.token)).body.items.map((d: { id: string }) => d.id)).toEqual([device.deviceId]);
    expect((await get("/devices", other.token)).body.items).toEqual([]);
    expectError(await get(`/devices/${device.deviceId}`, other.token), 404, "not_found");
    expect((await get(`/devices?networkId=${network.id}`, admin.token)).body.items.map((d: { id: string }) => d.id)).toContain(
      device.deviceId,
    );
    const renamed = await call("PATCH", `/devices/${device.deviceId}`, { token: owner.token, body: { name: "laptop-ada" } });
    expect(renamed.body.name).toBe("laptop-ada");
    expect((await get(`/nodes/${device.nodeId}`, admin.token)).body.name).toBe("laptop-ada");
    expectError(await call("DELETE", `/devices/${device.deviceId}`, { token: other.token }), 404, "not_found");
    expect((await call("DELETE", `/devices/${device.deviceId}`, { token: owner.token })).status).toBe(204);
    expectError(await get(`/nodes/${device.nodeId}`, admin.token), 404, "not_found");
    expectError(await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken }), 401, "unauthorized");
    expect((await enrolDevice(owner, { networkId: network.id })).address).toBe(device.address);
  });

  it("routing preferences choose the policies in the device's routingIntent", async () => {
    const admin = await signInAdmin();
    const {
      network,
      hops: [gw],
    } = await gatewayNetwork(admin, 1);
    const p1 = (
      await post(
        `/networks/${network.id}/routing-policies`,
        { name: "a", type: "via_gateway", destinationCidr: "192.168.1.0/24", gatewayPath: [gw!.id] },
        admin.token,
      )
    ).body;
    const p2 = (
      await post(
        `/networks/${network.id}/routing-policies`,
        { name: "b", type: "via_gateway", destinationCidr: "192.168.2.0/24", gatewayPath: [gw!.id] },
        admin.token,
      )
    ).body;
    const device = await enrolDevice(admin, { networkId: network.id });
    const intentIds = async () =>
      (await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken })).body.config.routingIntent.map(
        (entry: { policyId: string }) => entry.policyId,
      );
    expect((await intentIds()).sort()).toEqual([p1.id, p2.id].sort());
    expect((await put(`/devices/${device.deviceId}/routing-preferences`, { mode: "only", policyIds: [p2.id] }, admin.token)).body).toEqual({
      mode: "only",
      policyIds: [p2.id],
    });
    expect(await intentIds()).toEqual([p2.id]);
    await put(`/devices/${device.deviceId}/routing-preferences`, { mode: "none" }, admin.token);
    expect(await intentIds()).toEqual([]);
    expectError(
      await put(`/devices/${device.deviceId}/routing-preferences`, { mode: "only", policyIds: ["rp_nope"] }, admin.token),
      400,
      "validation_error",
    );
    expect((await get(`/devices/${device.deviceId}/routing-preferences`, admin.token)).body).toEqual({ mode: "none", policyIds: [] });
  });
});

describe("a device that has applied nothing yet", () => {
  it("reports appliedRevision null: it shows as unreported, not lagging, and is told to fetch its config", async () => {
    const { admin, network } = await networkSetup();
    const device = await enrolDevice(admin, { networkId: network.id });
    const answer = await beat(device.deviceId, device.deviceToken, { appliedRevision: null });
    expect(answer.body).toMatchObject({ configChanged: true });
    const routing = (await get(`/networks/${network.id}/runtime-status`, admin.token)).body.routing;
    expect(routing).toMatchObject({ lagging: [], unreported: [device.nodeId] });
    expect((await get(`/devices/${device.deviceId}`, admin.token)).body.status).toBe("online");
  });
});

describe("heartbeats with many peers", () => {
  it("records 40 peers in one heartbeat (upserts stay within D1's 100 bound parameters a statement)", async () => {
    const { admin, network } = await networkSetup();
    const device = await enrolDevice(admin, { networkId: network.id });
    const peers = Array.from({ length: 40 }, (_, i) => ({
      publicKey: btoa(String.fromCharCode(...new Uint8Array(32).fill(i + 1))),
      lastHandshakeAt: null,
      rxBytes: i,
      txBytes: i,
    }));
    const answer = await beat(device.deviceId, device.deviceToken, { appliedRevision: null, peers });
    expect(answer.status, answer.text).toBe(200);
    const tunnels = (await get(`/tunnels?nodeId=${device.nodeId}&limit=200`, admin.token)).body.items;
    expect(tunnels).toHaveLength(40);
  });
});
