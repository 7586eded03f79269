import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Schema } from "../../client/index.ts";
import { api, byId } from "../helpers/api";
import { expectError, expectRefused } from "../helpers/expect-error";
import {
  createGroup,
  createNetwork,
  createUser,
  enrolDevice,
  expectStatus,
  fakePublicKey,
  networkSetup,
  type GroupRole,
  type Session,
} from "../helpers/factories";
import { tables } from "../helpers/state";

/** The network's admin and a user with `role` in its group. */
async function memberOfNetwork(role: GroupRole = "member") {
  const { admin, group, network, as } = await networkSetup();
  return { admin, user: await as(role), group, network };
}

/**
 * An enrolment that is refused stores no device and no node, and spends no use of a key. A key's
 * updated_at is left out: a use taken and given back (a refusal after the key check) touches it.
 */
async function enrolments() {
  const { enrolment_keys: keys = [], ...rows } = await tables("devices", "nodes", "networks", "enrolment_keys");
  return { ...rows, keys: keys.map(({ updated_at: _touched, ...key }) => key) };
}

const enrol = (body: Schema<"EnrolDevice">, token?: string) => api(token).POST("/api/v1/client/devices", { body });

const createKey = async (admin: Session, networkId: string, body: Schema<"CreateEnrolmentKey">) =>
  expectStatus(await api(admin.token).POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(networkId), body }), 201);

describe("POST /client/devices", () => {
  it("a member enrols a device: it becomes a node, gets a config and its own credential", async () => {
    const { user, network } = await memberOfNetwork();
    const enrolled = await enrolDevice(user, { networkId: network.id, platform: "linux", clientVersion: "0.1.0" });
    const { device, node, config } = enrolled.body;
    expect(device).toMatchObject({
      networkId: network.id,
      userId: user.userId,
      platform: "linux",
      status: "unknown",
      routing: { mode: "all", policyIds: [] },
    });
    expect(node).toMatchObject({ deviceId: device.id, networkId: network.id, roles: [] });
    expect(config.nodeId).toBe(node.id);
    expect(config.wgQuick).toContain("PrivateKey = REPLACE_WITH_PRIVATE_KEY");
    expect(enrolled.deviceToken).toMatch(/^dvc_/);
    expect(expectStatus(await api(user.token).GET("/api/v1/nodes/{id}", byId(node.id)), 200).deviceId).toBe(device.id);
  });

  it("spec part 7: 422 schema, 400 domain, 401 unauthenticated, 403 forbidden, 404 unseen", async () => {
    const { user, network, admin } = await memberOfNetwork("viewer");
    const device = () => ({ networkId: network.id, name: "x", publicKey: fakePublicKey() });
    await expectRefused(enrolments, () => enrol({ ...device(), publicKey: "nope" }, user.token), 422, "VALIDATION_ERROR", ["publicKey"]);
    await expectRefused(enrolments, () => enrol(device()), 401, "unauthorized");
    await expectRefused(enrolments, () => enrol(device(), user.token), 403, "forbidden");
    const stranger = await createUser(admin);
    await expectRefused(enrolments, () => enrol(device(), stranger.token), 404, "not_found");
    const otherGroup = await createGroup(admin);
    const otherNet = await createNetwork(admin, otherGroup.id);
    const key = await createKey(admin, otherNet.id, { name: "k" });
    const wrongNet = await expectRefused(enrolments, () => enrol({ ...device(), enrolmentKey: key.key }), 400, "validation_error");
    expect(wrongNet).toEqual({ code: "validation_error", message: "The enrolment key belongs to another network" });
    expect(
      expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/enrolment-keys", byId(otherNet.id)), 200).items[0]!.usedCount,
    ).toBe(0);
  });

  it("a duplicate public key in the network is 409 and gives the key's use back", async () => {
    const { admin, network } = await memberOfNetwork();
    const key = (await createKey(admin, network.id, { name: "k", usageLimit: 5 })).key;
    const publicKey = fakePublicKey();
    await enrolDevice(null, { enrolmentKey: key, publicKey });
    await expectRefused(enrolments, () => enrol({ name: "twin", publicKey, enrolmentKey: key }), 409, "conflict");
    expect(
      expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/enrolment-keys", byId(network.id)), 200).items[0]!.usedCount,
    ).toBe(1);
  });
});

describe("enrolment keys", () => {
  it("headless enrolment: no owner, limited uses, expiry and revocation all end the key (401)", async () => {
    const { admin, network } = await memberOfNetwork();
    const client = api(admin.token);
    const created = await createKey(admin, network.id, { name: "ci", usageLimit: 2 });
    expect(created.key).toMatch(/^ek_/);
    const listed = expectStatus(await client.GET("/api/v1/networks/{id}/enrolment-keys", byId(network.id)), 200).items[0];
    expect(listed).not.toHaveProperty("key");
    expect(listed).not.toHaveProperty("keyHash");
    const first = await enrolDevice(null, { enrolmentKey: created.key });
    expect(first.body.device.userId).toBeNull();
    await enrolDevice(null, { enrolmentKey: created.key });
    await expectRefused(
      enrolments,
      () => enrol({ name: "third", publicKey: fakePublicKey(), enrolmentKey: created.key }),
      401,
      "unauthorized",
    );

    const expiring = await createKey(admin, network.id, { name: "old", usageLimit: 9 });
    await env.DB.prepare("update enrolment_keys set expires_at = '2000-01-01T00:00:00.000Z' where id = ?").bind(expiring.id).run();
    await expectRefused(
      enrolments,
      () => enrol({ name: "late", publicKey: fakePublicKey(), enrolmentKey: expiring.key }),
      401,
      "unauthorized",
    );

    const revoked = await createKey(admin, network.id, { name: "gone", usageLimit: 9 });
    const revoke = await client.DELETE("/api/v1/networks/{id}/enrolment-keys/{keyId}", {
      params: { path: { id: network.id, keyId: revoked.id } },
    });
    expect(revoke.response.status).toBe(204);
    await expectRefused(
      enrolments,
      () => enrol({ name: "nope", publicKey: fakePublicKey(), enrolmentKey: revoked.key }),
      401,
      "unauthorized",
    );
  });

  it("concurrent enrolments never exceed the usage limit", async () => {
    const { admin, network } = await memberOfNetwork();
    const key = (await createKey(admin, network.id, { name: "burst", usageLimit: 3 })).key;
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => enrol({ name: `burst-${i}`, publicKey: fakePublicKey(), enrolmentKey: key })),
    );
    expect(attempts.filter((r) => r.response.status === 201)).toHaveLength(3);
    const refused = attempts.filter((r) => r.response.status !== 201);
    expect(refused).toHaveLength(5);
    for (const loser of refused) expectError(loser, 401, "unauthorized");
  });

  it("only group owners and admins manage keys", async () => {
    const { user, network } = await memberOfNetwork("member");
    await expectRefused(
      enrolments,
      () => api(user.token).POST("/api/v1/networks/{id}/enrolment-keys", { ...byId(network.id), body: { name: "k" } }),
      403,
      "forbidden",
    );
    expectError(await api(user.token).GET("/api/v1/networks/{id}/enrolment-keys", byId(network.id)), 403, "forbidden");
  });
});
