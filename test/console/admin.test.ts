import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createGateway, createUser, expectStatus, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { inHtml, messageOf } from "./support/api-message";

const PASSWORD = "a long enough password";
const adminAgent = () => signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
const settingsOf = async (token: string) => expectStatus(await api(token).GET("/api/v1/admin/settings"), 200);

const SETTINGS_FORM = {
  routingPolicyMaxHops: "5",
  eligibleStatuses: "active",
  eligibleRegions: "",
  accessTokenSeconds: "",
  refreshTokenSeconds: "",
  offlineAfterSeconds: "120",
  signUpMode: "invites",
};

describe("console admin", { timeout: 30_000 }, () => {
  // A workerd of its own (workers-alone, test/suites.ts): nothing exists before this file's first test.
  it("says what to do while the inventories are empty", async () => {
    const agent = await adminAgent();
    const inventory = await agent.get("/admin/inventory");
    expect(inventory.status).toBe(200);
    expect(inventory.text).toContain("No gateways yet");
    expect(inventory.text).toContain("No regions yet");
    expect((await agent.get("/admin/agents")).text).toContain("No agents yet");
  });

  it("saves the platform settings through PUT /admin/settings, and shows the API's refusal with what was typed", async () => {
    const admin = await signInAdmin();
    const agent = await adminAgent();
    const page = await agent.get("/admin");
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/admin" aria-current="page"');
    expect(page.text).toContain('for="max-hops"');

    expect((await agent.post("/admin/settings", SETTINGS_FORM)).status).toBe(303);
    const saved = await settingsOf(admin.token);
    expect(saved.settings).toMatchObject({
      routingPolicyMaxHops: 5,
      gatewayEligibility: { statuses: ["active"], regionIds: null },
      heartbeat: { offlineAfterSeconds: 120 },
      signUp: { mode: "invites" },
    });
    expect(saved.effective.routingPolicyMaxHops).toBe(5);

    const refused = await agent.post("/admin/settings", { ...SETTINGS_FORM, accessTokenSeconds: "10" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('value="10"');
    expect((await settingsOf(admin.token)).settings.tokenLifetimes?.accessTokenSeconds ?? null).toBeNull();
    expect((await api(admin.token).PUT("/api/v1/admin/settings", { body: {} })).response.status).toBe(200);
  });

  it("creates a region and a gateway, and changes the gateway's status", async () => {
    const admin = await signInAdmin();
    const agent = await adminAgent();
    const regionName = `region-${Date.now().toString(36)}`;
    expect((await agent.post("/admin/regions", { name: regionName })).status).toBe(303);
    const region = expectStatus(await api(admin.token).GET("/api/v1/regions", { params: { query: { limit: 200 } } }), 200).items.find(
      (item) => item.name === regionName,
    );
    expect(region).toBeDefined();

    const added = await agent.post("/admin/gateways", {
      regionId: region?.id ?? "",
      name: "edge-1",
      publicHost: "gw1.example.com",
      capacity: "",
    });
    expect(added.status).toBe(303);
    const gateways = expectStatus(
      await api(admin.token).GET("/api/v1/gateways", { params: { query: { regionId: region?.id } } }),
      200,
    ).items;
    expect(gateways).toEqual([expect.objectContaining({ name: "edge-1", publicHost: "gw1.example.com", status: "active" })]);

    expect((await agent.post(`/admin/gateways/${gateways[0]?.id}/status`, { status: "draining" })).status).toBe(303);
    const changed = expectStatus(
      await api(admin.token).GET("/api/v1/gateways/{id}", { params: { path: { id: gateways[0]?.id ?? "" } } }),
      200,
    );
    expect(changed.status).toBe("draining");
    expect((await agent.get("/admin/inventory")).text).toContain("Set status of edge-1");
  });

  it("issues an agent enrolment token shown once, lists the enrolled agent and revokes it", async () => {
    const admin = await signInAdmin();
    const gateway = await createGateway(admin);
    const agent = await adminAgent();
    const issued = await agent.post("/admin/agents/tokens", { kind: "gateway-daemon", gatewayId: gateway.id, regionId: "" });
    expect(issued.status).toBe(201);
    const token = /<code id="agent-token">([^<]+)<\/code>/.exec(issued.text)?.[1] ?? "";
    expect(token).toMatch(/^aet_/);
    expect((await agent.get("/admin/agents")).text).not.toContain(token);

    const enrolled = expectStatus(await api().POST("/api/v1/agents/enrol", { body: { token, name: "daemon-one" } }), 201);
    const page = await agent.get("/admin/agents");
    expect(page.text).toContain("Revoke agent daemon-one");
    expect((await agent.post(`/admin/agents/${enrolled.agent.id}/revoke`, {})).status).toBe(303);
    expect(
      expectStatus(await api(admin.token).GET("/api/v1/agents/{id}", { params: { path: { id: enrolled.agent.id } } }), 200).status,
    ).toBe("revoked");
  });

  it("searches agents by name or by their gateway's name (issue 29)", async () => {
    const admin = await signInAdmin();
    const enrol = async (name: string) => {
      const gateway = await createGateway(admin);
      const issued = expectStatus(
        await api(admin.token).POST("/api/v1/agents/enrolment-tokens", { body: { kind: "gateway-daemon", gatewayId: gateway.id } }),
        201,
      );
      expectStatus(await api().POST("/api/v1/agents/enrol", { body: { token: issued.token, name } }), 201);
      return gateway;
    };
    await enrol("search-alpha");
    const beta = await enrol("search-beta");
    const agent = await adminAgent();
    const rows = async (q: string) =>
      [...(await agent.get(`/admin/agents?q=${encodeURIComponent(q)}`)).text.matchAll(/<tr>\s*<td>([^<]+)<\/td>/g)].map((m) => m[1]);
    expect(await rows("ALPHA")).toEqual(["search-alpha"]);
    expect(await rows(beta.name)).toEqual(["search-beta"]);
    const none = await agent.get("/admin/agents?q=no-such-agent");
    expect(none.text).toContain("No agent matches “no-such-agent”.");
  });

  it("refuses everyone else: no admin page, no admin nav, and the API's message for their POSTs", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const agent = await signedInAgent(user.email, PASSWORD);
    const direct = await api(user.token).GET("/api/v1/admin/settings");
    expect(direct.response.status).toBe(403);

    const page = await agent.get("/admin");
    expect(page.status).toBe(403);
    expect(page.text).toContain(inHtml(messageOf(direct)));
    expect(page.text).not.toContain('href="/admin"');
    expect(page.text).not.toContain("Save settings");
    for (const path of ["/admin/inventory", "/admin/agents"]) expect((await agent.get(path)).location).toBe("/admin");

    const before = await settingsOf(admin.token);
    expect((await agent.post("/admin/settings", { ...SETTINGS_FORM, routingPolicyMaxHops: "1" })).status).toBe(403);
    expect((await settingsOf(admin.token)).settings).toEqual(before.settings);
    const region = await agent.post("/admin/regions", { name: "not-mine" });
    expect(region.status).toBe(403);
    expect(region.text).toContain('role="alert"');
    const gateway = await createGateway(admin);
    const token = await agent.post("/admin/agents/tokens", { kind: "gateway-daemon", gatewayId: gateway.id, regionId: "" });
    expect(token.status).toBe(403);
    expect(token.text).not.toMatch(/aet_/);
  });
});
