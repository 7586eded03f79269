import { describe, expect, it } from "vitest";
import { api, byId, call, post, put } from "../helpers/api";
import { freshAddress, mailedToken } from "../identity/identity-helpers";
import { TEST_ADMIN } from "../test-secrets";
import {
  createGateway,
  createNode,
  createUser,
  expectStatus,
  gatewayNetwork,
  networkSetup,
  signInAdmin,
  unique,
} from "../helpers/factories";
import { expectError, expectRefused } from "../helpers/expect-error";
import { rowsOf } from "../helpers/state";

/** A refused settings write leaves the stored overrides as they were. */
const settingsRows = rowsOf("admin_settings");

const policy = (gatewayPath: string[], destinationCidr: string) => ({
  name: destinationCidr,
  type: "via_gateway",
  destinationCidr,
  gatewayPath,
});

describe("/admin/settings", () => {
  it("platform admins only; defaults come from the environment", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    expectError(await api(user.token).GET("/api/v1/admin/settings"), 403, "forbidden");
    await expectRefused(settingsRows, () => api(user.token).PUT("/api/v1/admin/settings", { body: {} }), 403, "forbidden");
    const view = expectStatus(await api(admin.token).GET("/api/v1/admin/settings"), 200);
    expect(view.effective).toMatchObject({
      routingPolicyMaxHops: 3,
      accessTokenSeconds: 900,
      offlineAfterSeconds: 300,
      signUpMode: "invites",
    });
  });

  it("validates: bounds and unknown fields are 422, unknown regions 400", async () => {
    const admin = await signInAdmin();
    // Out of bounds and an unknown field on purpose: sent raw.
    await expectRefused(
      settingsRows,
      () => put("/admin/settings", { routingPolicyMaxHops: 0, heartbeat: { offlineAfterSeconds: 5 }, surprise: true }, admin.token),
      422,
      "VALIDATION_ERROR",
      ["heartbeat.offlineAfterSeconds", "routingPolicyMaxHops", "surprise"],
    );
    await expectRefused(
      settingsRows,
      () =>
        api(admin.token).PUT("/api/v1/admin/settings", {
          body: { gatewayEligibility: { statuses: ["active"], regionIds: ["reg_nope"] } },
        }),
      400,
      "validation_error",
    );
  });

  it("the hop limit override applies to new policies; lowering it keeps longer policies and reports them", async () => {
    const {
      admin,
      network,
      hops: [g1, g2, g3],
    } = await networkSetup({ gateways: 3 });
    const client = api(admin.token);
    const create = (gatewayPath: string[], destinationCidr: string) =>
      client.POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name: destinationCidr, type: "via_gateway", destinationCidr, gatewayPath },
      });
    const long = expectStatus(await create([g1!.id, g2!.id, g3!.id], "192.168.10.0/24"), 201);
    const lowered = expectStatus(await client.PUT("/api/v1/admin/settings", { body: { routingPolicyMaxHops: 2 } }), 200);
    expect(lowered.effective.routingPolicyMaxHops).toBe(2);
    expect(lowered.policiesOverLimit).toContainEqual({ policyId: long.id, networkId: network.id, hops: 3 });
    expectStatus(await client.GET("/api/v1/routing-policies/{id}", byId(long.id)), 200);
    const refused = await expectRefused(
      rowsOf("routing_policies", "networks"),
      () => create([g1!.id, g2!.id, g3!.id], "192.168.11.0/24"),
      400,
      "validation_error",
    );
    expect(refused.message).toContain("at most 2");
    expectStatus(await client.PUT("/api/v1/admin/settings", { body: { routingPolicyMaxHops: 4 } }), 200);
    const g4 = await createNode(admin, network.id, { gatewayId: (await createGateway(admin)).id });
    expectStatus(await create([g1!.id, g2!.id, g3!.id, g4.id], "192.168.12.0/24"), 201);
    expectStatus(await client.PUT("/api/v1/admin/settings", { body: {} }), 200);
  });

  it("gateway eligibility by status and region decides which gateways may be hops", async () => {
    const admin = await signInAdmin();
    const {
      network,
      hops: [g1],
    } = await gatewayNetwork(admin, 1);
    const draining = await createGateway(admin, "draining");
    const parked = await createNode(admin, network.id, { gatewayId: draining.id });
    expectError(
      await post(`/networks/${network.id}/routing-policies`, policy([parked.id], "192.168.20.0/24"), admin.token),
      400,
      "validation_error",
    );
    await put("/admin/settings", { gatewayEligibility: { statuses: ["active", "draining"] } }, admin.token);
    expect((await post(`/networks/${network.id}/routing-policies`, policy([parked.id], "192.168.20.0/24"), admin.token)).status).toBe(201);
    await put("/admin/settings", { gatewayEligibility: { statuses: ["active"], regionIds: [draining.regionId] } }, admin.token);
    const wrongRegion = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id], "192.168.21.0/24"), admin.token);
    expectError(wrongRegion, 400, "validation_error");
    expect(wrongRegion.body.error.message).toContain("region");
    await put("/admin/settings", {}, admin.token);
  });
});

describe("settings that reach sign-in and sign-up", () => {
  it("token lifetimes override the vars at login and refresh", async () => {
    const admin = await signInAdmin();
    await put("/admin/settings", { tokenLifetimes: { accessTokenSeconds: 120, refreshTokenSeconds: 7200 } }, admin.token);
    const session = await signInAdmin();
    const claims = JSON.parse(Buffer.from(session.token.split(".")[1]!, "base64url").toString());
    expect(claims.exp - claims.iat).toBe(120);
    const refreshed = await post("/auth/refresh", { refreshToken: session.refreshToken });
    expect(refreshed.body.expiresIn).toBe(120);
    await put("/admin/settings", {}, admin.token);
    expect((await post("/auth/login", TEST_ADMIN)).body.expiresIn).toBe(900);
  });

  it("with sign-up limited to platform admins, an invite cannot create an account (403)", async () => {
    const admin = await signInAdmin();
    const { group } = await gatewayNetwork(admin, 0);
    const email = `${unique("invitee")}@example.com`;
    expect((await post(`/groups/${group.id}/invites`, { email, role: "member" }, admin.token)).status).toBe(201);
    const token = await mailedToken(email, "inv");
    await put("/admin/settings", { signUp: { mode: "admins_only" } }, admin.token);
    const refused = await call("POST", "/auth/invites/accept", {
      body: { token, password: "a long enough password" },
      headers: { "CF-Connecting-IP": freshAddress() },
    });
    expectError(refused, 403, "forbidden");
    await put("/admin/settings", {}, admin.token);
    const accepted = await call("POST", "/auth/invites/accept", {
      body: { token, password: "a long enough password" },
      headers: { "CF-Connecting-IP": freshAddress() },
    });
    expect(accepted.status, accepted.text).toBe(200);
  });
});
