import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { addMember, createGroup, createNetwork, createUser, enrolDevice, fakePublicKey, signInAdmin } from "../helpers/factories";

async function memberOfNetwork(role = "member") {
  const admin = await signInAdmin();
  const user = await createUser(admin);
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id);
  await addMember(group.id, user, role);
  return { admin, user, group, network };
}

describe("POST /client/devices", () => {
  it("a member enrols a device: it becomes a node, gets a config and its own credential", async () => {
    const { user, network } = await memberOfNetwork();
    const enrolled = await enrolDevice(user, { networkId: network.id, platform: "linux", clientVersion: "0.1.0" });
    const { device, node, config } = enrolled.body;
    expect(device).toMatchObject({ networkId: network.id, userId: user.userId, platform: "linux", status: "unknown", routing: { mode: "all", policyIds: [] } });
    expect(node).toMatchObject({ deviceId: device.id, networkId: network.id, roles: [] });
    expect(config.nodeId).toBe(node.id);
    expect(config.wgQuick).toContain("PrivateKey = REPLACE_WITH_PRIVATE_KEY");
    expect(enrolled.deviceToken).toMatch(/^dvc_/);
    expect((await get(`/nodes/${node.id}`, user.token)).body.deviceId).toBe(device.id);
  });

  it("spec part 7: 422 schema, 400 domain, 401 unauthenticated, 403 forbidden, 404 unseen", async () => {
    const { user, network, admin } = await memberOfNetwork("viewer");
    const schema = await post("/client/devices", { networkId: network.id, name: "x", publicKey: "nope" }, user.token);
    expect(schema.status).toBe(422);
    expect(schema.body.error).toMatchObject({ code: "VALIDATION_ERROR", fields: [{ path: "publicKey" }] });
    const noAuth = await post("/client/devices", { networkId: network.id, name: "x", publicKey: fakePublicKey() });
    expect(noAuth.status).toBe(401);
    expect(noAuth.body.error.code).toBe("unauthorized");
    const viewer = await post("/client/devices", { networkId: network.id, name: "x", publicKey: fakePublicKey() }, user.token);
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.code).toBe("forbidden");
    const stranger = await createUser(admin);
    const unseen = await post("/client/devices", { networkId: network.id, name: "x", publicKey: fakePublicKey() }, stranger.token);
    expect(unseen.status).toBe(404);
    const otherGroup = await createGroup(admin);
    const otherNet = await createNetwork(admin, otherGroup.id);
    const key = await post(`/networks/${otherNet.id}/enrolment-keys`, { name: "k" }, admin.token);
    const wrongNet = await post("/client/devices", { networkId: network.id, name: "x", publicKey: fakePublicKey(), enrolmentKey: key.body.key });
    expect(wrongNet.status).toBe(400);
    expect(wrongNet.body.error).toEqual({ code: "validation_error", message: "The enrolment key belongs to another network" });
    expect((await get(`/networks/${otherNet.id}/enrolment-keys`, admin.token)).body.items[0].usedCount).toBe(0);
  });

  it("a duplicate public key in the network is 409 and gives the key's use back", async () => {
    const { admin, network } = await memberOfNetwork();
    const key = (await post(`/networks/${network.id}/enrolment-keys`, { name: "k", usageLimit: 5 }, admin.token)).body.key;
    const publicKey = fakePublicKey();
    await enrolDevice(null, { enrolmentKey: key, publicKey });
    const again = await post("/client/devices", { name: "twin", publicKey, enrolmentKey: key });
    expect(again.status).toBe(409);
    expect((await get(`/networks/${network.id}/enrolment-keys`, admin.token)).body.items[0].usedCount).toBe(1);
  });
});

describe("enrolment keys", () => {
  it("headless enrolment: no owner, limited uses, expiry and revocation all end the key (401)", async () => {
    const { admin, network } = await memberOfNetwork();
    const created = await post(`/networks/${network.id}/enrolment-keys`, { name: "ci", usageLimit: 2 }, admin.token);
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ek_/);
    const listed = (await get(`/networks/${network.id}/enrolment-keys`, admin.token)).body.items[0];
    expect(listed).not.toHaveProperty("key");
    expect(listed).not.toHaveProperty("keyHash");
    const first = await enrolDevice(null, { enrolmentKey: created.body.key });
    expect(first.body.device.userId).toBeNull();
    await enrolDevice(null, { enrolmentKey: created.body.key });
    const third = await post("/client/devices", { name: "third", publicKey: fakePublicKey(), enrolmentKey: created.body.key });
    expect(third.status).toBe(401);

    const expiring = (await post(`/networks/${network.id}/enrolment-keys`, { name: "old", usageLimit: 9 }, admin.token)).body;
    await env.DB.prepare("update enrolment_keys set expires_at = '2000-01-01T00:00:00.000Z' where id = ?").bind(expiring.id).run();
    expect((await post("/client/devices", { name: "late", publicKey: fakePublicKey(), enrolmentKey: expiring.key })).status).toBe(401);

    const revoked = (await post(`/networks/${network.id}/enrolment-keys`, { name: "gone", usageLimit: 9 }, admin.token)).body;
    expect((await call("DELETE", `/networks/${network.id}/enrolment-keys/${revoked.id}`, { token: admin.token })).status).toBe(204);
    expect((await post("/client/devices", { name: "nope", publicKey: fakePublicKey(), enrolmentKey: revoked.key })).status).toBe(401);
  });

  it("concurrent enrolments never exceed the usage limit", async () => {
    const { admin, network } = await memberOfNetwork();
    const key = (await post(`/networks/${network.id}/enrolment-keys`, { name: "burst", usageLimit: 3 }, admin.token)).body.key;
    const attempts = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      post("/client/devices", { name: `burst-${i}`, publicKey: fakePublicKey(), enrolmentKey: key })));
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(3);
    expect(attempts.filter((r) => r.status === 401)).toHaveLength(5);
  });

  it("only group owners and admins manage keys", async () => {
    const { user, network } = await memberOfNetwork("member");
    expect((await post(`/networks/${network.id}/enrolment-keys`, { name: "k" }, user.token)).status).toBe(403);
    expect((await get(`/networks/${network.id}/enrolment-keys`, user.token)).status).toBe(403);
  });
});
