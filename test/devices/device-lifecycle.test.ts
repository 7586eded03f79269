import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, byId, call, del, get, patch, post } from "../helpers/api";
import {
  addMember,
  createGateway,
  createGroup,
  createNetwork,
  createUser,
  enrolDevice,
  expectStatus,
  networkSetup,
  signInAdmin,
} from "../helpers/factories";
import { expectError, expectRefused } from "../helpers/expect-error";
import { rowsOf } from "../helpers/state";

async function memberWithDevice() {
  const admin = await signInAdmin();
  const user = await createUser(admin);
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id);
  await addMember(group.id, user, "member");
  const device = await enrolDevice(user, { networkId: network.id });
  const peer = await enrolDevice(admin, { networkId: network.id });
  return { admin, user, group, network, device, peer };
}

const peerIds = async (deviceId: string, token: string) =>
  (await call("POST", `/client/devices/${deviceId}/config`, { token })).body.config.peers.map((p: { nodeId: string }) => p.nodeId);

describe("devices follow their owner's access", () => {
  it("removing the member from the group takes their devices out of its networks", async () => {
    const { admin, user, group, device, peer } = await memberWithDevice();
    expect(await peerIds(peer.deviceId, peer.deviceToken)).toContain(device.nodeId);
    expect((await del(`/groups/${group.id}/members/${user.userId}`, admin.token)).status).toBe(204);
    expect(await peerIds(peer.deviceId, peer.deviceToken)).not.toContain(device.nodeId);
    expectError(await get(`/nodes/${device.nodeId}`, admin.token), 404, "not_found");
    expectError(await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken }), 401, "unauthorized");
  });

  it("disabling or deleting the user does the same", async () => {
    const disabled = await memberWithDevice();
    expect((await patch(`/users/${disabled.user.userId}`, { disabled: true }, disabled.admin.token)).status).toBe(200);
    expect(await peerIds(disabled.peer.deviceId, disabled.peer.deviceToken)).not.toContain(disabled.device.nodeId);
    const deleted = await memberWithDevice();
    expect((await del(`/users/${deleted.user.userId}`, deleted.admin.token)).status).toBe(204);
    expect(await peerIds(deleted.peer.deviceId, deleted.peer.deviceToken)).not.toContain(deleted.device.nodeId);
    expectError(await get(`/nodes/${deleted.device.nodeId}`, deleted.admin.token), 404, "not_found");
  });

  it("demotion to viewer takes the member's devices out of the group's networks; their credentials stop at once", async () => {
    const { admin, user, group, device, peer } = await memberWithDevice();
    expect(await peerIds(peer.deviceId, peer.deviceToken)).toContain(device.nodeId);
    const demoted = await patch(`/groups/${group.id}/members/${user.userId}`, { role: "viewer" }, admin.token);
    expect(demoted.status, demoted.text).toBe(200);
    expect(await peerIds(peer.deviceId, peer.deviceToken)).not.toContain(device.nodeId);
    expect((await get(`/nodes/${device.nodeId}`, admin.token)).status).toBe(404);
    const config = await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken });
    expect(config.status).toBe(401);
    expect(config.body.error.code).toBe("unauthorized");
    const beat = await call("POST", `/client/devices/${device.deviceId}/heartbeat`, {
      token: device.deviceToken,
      body: { appliedRevision: null },
    });
    expect(beat.status).toBe(401);
    expect(beat.body.error.code).toBe("unauthorized");
  });

  it("demotion to viewer is refused (409) while the member's device is a gateway hop, and changes nothing", async () => {
    const { admin, user, group, network, device } = await memberWithDevice();
    const inventory = await createGateway(admin);
    expect((await patch(`/nodes/${device.nodeId}`, { roles: ["gateway"], gatewayId: inventory.id }, admin.token)).status).toBe(200);
    const policy = await post(
      `/networks/${network.id}/routing-policies`,
      { name: "via-laptop", type: "via_gateway", destinationCidr: "192.168.50.0/24", gatewayPath: [device.nodeId] },
      admin.token,
    );
    expect(policy.status, policy.text).toBe(201);
    const refused = await patch(`/groups/${group.id}/members/${user.userId}`, { role: "viewer" }, admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict");
    const members = (await get(`/groups/${group.id}/members`, admin.token)).body.items;
    expect(members.find((m: { userId: string }) => m.userId === user.userId).role).toBe("member");
    expect((await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken })).status).toBe(200);
  });

  it("a platform admin demoted to user loses the devices held only as admin, keeps those of its own groups", async () => {
    const admin = await signInAdmin();
    const platformAdmin = await createUser(admin, { platformRole: "admin" });
    const foreign = await createGroup(admin);
    const foreignNetwork = await createNetwork(admin, foreign.id);
    const own = await createGroup(platformAdmin);
    const ownNetwork = await createNetwork(platformAdmin, own.id);
    const outside = await enrolDevice(platformAdmin, { networkId: foreignNetwork.id });
    const inside = await enrolDevice(platformAdmin, { networkId: ownNetwork.id });
    const peer = await enrolDevice(admin, { networkId: foreignNetwork.id });
    expect(await peerIds(peer.deviceId, peer.deviceToken)).toContain(outside.nodeId);
    expect((await patch(`/users/${platformAdmin.userId}`, { platformRole: "user" }, admin.token)).status).toBe(200);
    expect(await peerIds(peer.deviceId, peer.deviceToken)).not.toContain(outside.nodeId);
    expect((await get(`/nodes/${outside.nodeId}`, admin.token)).status).toBe(404);
    expect((await call("POST", `/client/devices/${outside.deviceId}/config`, { token: outside.deviceToken })).status).toBe(401);
    expect((await call("POST", `/client/devices/${inside.deviceId}/config`, { token: inside.deviceToken })).status).toBe(200);
  });

  it("a device whose owner became a viewer cannot act for itself even if its removal did not happen", async () => {
    const { group, user, device } = await memberWithDevice();
    await env.DB.prepare("update memberships set role = 'viewer' where group_id = ? and user_id = ?").bind(group.id, user.userId).run();
    for (const route of ["config", "heartbeat"]) {
      const refused = await call("POST", `/client/devices/${device.deviceId}/${route}`, {
        token: device.deviceToken,
        body: route === "heartbeat" ? { appliedRevision: null } : { sinceRevision: 0 },
      });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe("unauthorized");
    }
    expect((await call("POST", `/client/devices/${device.deviceId}/config`, { token: user.token })).status).toBe(404);
  });

  it("a device whose owner lost the membership cannot act for itself even if its removal did not happen", async () => {
    const { group, user, device } = await memberWithDevice();
    await env.DB.prepare("delete from memberships where group_id = ? and user_id = ?").bind(group.id, user.userId).run();
    const refused = await call("POST", `/client/devices/${device.deviceId}/heartbeat`, {
      token: device.deviceToken,
      body: { appliedRevision: null },
    });
    expectError(refused, 401, "unauthorized");
  });
});

describe("a device that is a gateway hop", () => {
  it("a CLI-enrolled server can be a gateway hop; while it is one, neither it nor its owner's access can go", async () => {
    const { admin, group, network, as } = await networkSetup();
    const owner = await as("member");
    const device = await enrolDevice(owner, { networkId: network.id });
    const gateway = await createGateway(admin);
    const client = api(admin.token);
    expectStatus(
      await client.PATCH("/api/v1/nodes/{id}", {
        ...byId(device.nodeId),
        body: { roles: ["gateway"], gatewayId: gateway.id, endpoint: "198.51.100.9:51820" },
      }),
      200,
    );
    const policy = expectStatus(
      await client.POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name: "via-server", type: "via_gateway", destinationCidr: "192.168.90.0/24", gatewayPath: [device.nodeId] },
      }),
      201,
    );

    // Ending the owner's access would leave a trusted peer (its machine holds the key) or break the routes:
    // removing the device, leaving, removal, disabling and deletion are refused until the policy changes.
    const access = rowsOf("users", "memberships", "devices", "nodes", "routing_policies", "networks");
    const member = { params: { path: { id: group.id, userId: owner.userId } } };
    const refused = await expectRefused(
      access,
      () => api(owner.token).DELETE("/api/v1/devices/{id}", byId(device.deviceId)),
      409,
      "conflict",
    );
    expect(refused.message).toContain(policy.id);
    await expectRefused(access, () => api(owner.token).DELETE("/api/v1/groups/{id}/members/{userId}", member), 409, "conflict");
    const removal = await expectRefused(access, () => client.DELETE("/api/v1/groups/{id}/members/{userId}", member), 409, "conflict");
    expect(removal.message).toContain(policy.id);
    await expectRefused(
      access,
      () => client.PATCH("/api/v1/users/{id}", { ...byId(owner.userId), body: { disabled: true } }),
      409,
      "conflict",
    );
    await expectRefused(access, () => client.DELETE("/api/v1/users/{id}", byId(owner.userId)), 409, "conflict");
    expectStatus(await api(owner.token).GET("/api/v1/users/me"), 200);
    expectStatus(await api(device.deviceToken).POST("/api/v1/client/devices/{id}/config", byId(device.deviceId)), 200);

    expect((await client.DELETE("/api/v1/routing-policies/{id}", byId(policy.id))).response.status).toBe(204);
    expect((await client.DELETE("/api/v1/groups/{id}/members/{userId}", member)).response.status).toBe(204);
    expectError(await api(device.deviceToken).POST("/api/v1/client/devices/{id}/config", byId(device.deviceId)), 401, "unauthorized");
    expectError(await client.GET("/api/v1/nodes/{id}", byId(device.nodeId)), 404, "not_found");
  });
});
