import { describe, expect, it } from "vitest";
import { call, get, post, put } from "../helpers/api";
import { freshAddress, mailedToken } from "../identity/identity-helpers";
import { TEST_ADMIN } from "../test-secrets";
import { createGateway, createNode, createUser, gatewayNetwork, signInAdmin, unique } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";

const policy = (gatewayPath: string[], destinationCidr: string) => ({ name: destinationCidr, type: "via_gateway", destinationCidr, gatewayPath });

describe("/admin/settings", () => {
  it("platform admins only; defaults come from the environment", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    expectError(await get("/admin/settings", user.token), 403, "forbidden");
    expectError(await put("/admin/settings", {}, user.token), 403, "forbidden");
    const view = await get("/admin/settings", admin.token);
    expect(view.status).toBe(200);
    expect(view.body.effective).toMatchObject({ routingPolicyMaxHops: 3, accessTokenSeconds: 900, offlineAfterSeconds: 300, signUpMode: "invites" });
  });

  it("validates: bounds and unknown fields are 422, unknown regions 400", async () => {
    const admin = await signInAdmin();
    const bad = await put("/admin/settings", { routingPolicyMaxHops: 0, heartbeat: { offlineAfterSeconds: 5 }, surprise: true }, admin.token);
    expectError(bad, 422, "VALIDATION_ERROR");
    expect(bad.body.error.fields.map((f: { path: string }) => f.path).sort()).toEqual(["heartbeat.offlineAfterSeconds", "routingPolicyMaxHops", "surprise"]);
    const unknown = await put("/admin/settings", { gatewayEligibility: { statuses: ["active"], regionIds: ["reg_nope"] } }, admin.token);
    expectError(unknown, 400, "validation_error");
  });

  it("the hop limit override applies to new policies; lowering it keeps longer policies and reports them", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1, g2, g3] } = await gatewayNetwork(admin, 3);
    const long = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id, g2!.id, g3!.id], "192.168.10.0/24"), admin.token);
    expect(long.status).toBe(201);
    const lowered = await put("/admin/settings", { routingPolicyMaxHops: 2 }, admin.token);
    expect(lowered.body.effective.routingPolicyMaxHops).toBe(2);
    expect(lowered.body.policiesOverLimit).toContainEqual({ policyId: long.body.id, networkId: network.id, hops: 3 });
    expect((await get(`/routing-policies/${long.body.id}`, admin.token)).status).toBe(200);
    const refused = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id, g2!.id, g3!.id], "192.168.11.0/24"), admin.token);
    expectError(refused, 400, "validation_error");
    expect(refused.body.error.message).toContain("at most 2");
    await put("/admin/settings", { routingPolicyMaxHops: 4 }, admin.token);
    const g4 = await createNode(admin, network.id, { gatewayId: (await createGateway(admin)).id });
    expect((await post(`/networks/${network.id}/routing-policies`, policy([g1!.id, g2!.id, g3!.id, g4.id], "192.168.12.0/24"), admin.token)).status).toBe(201);
    await put("/admin/settings", {}, admin.token);
  });

  it("gateway eligibility by status and region decides which gateways may be hops", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1] } = await gatewayNetwork(admin, 1);
    const draining = await createGateway(admin, "draining");
    const parked = await createNode(admin, network.id, { gatewayId: draining.id });
    expectError(await post(`/networks/${network.id}/routing-policies`, policy([parked.id], "192.168.20.0/24"), admin.token), 400, "validation_error");
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
    const refused = await call("POST", "/auth/invites/accept", { body: { token, password: "a long enough password" }, headers: { "CF-Connecting-IP": freshAddress() } });
    expectError(refused, 403, "forbidden");
    await put("/admin/settings", {}, admin.token);
    const accepted = await call("POST", "/auth/invites/accept", { body: { token, password: "a long enough password" }, headers: { "CF-Connecting-IP": freshAddress() } });
    expect(accepted.status, accepted.text).toBe(200);
  });
});
