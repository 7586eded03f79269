import { describe, expect, it } from "vitest";
import { createConsole } from "../../src/console";
import { api } from "../helpers/api";
import { createGateway, createUser, expectStatus, networkSetup, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";

const PASSWORD = "a long enough password";

/** Every POST route the console has, with its parameters filled in (`:action{drain|undrain}` → drain). */
const postRoutes = () =>
  [
    ...new Set(
      createConsole(() => new Response(null, { status: 500 }))
        .routes.filter((route) => route.method === "POST")
        .map((r) => r.path),
    ),
  ].map((path) => path.replace(/:[A-Za-z]+\{([^|}]+)[^}]*\}/g, "$1").replace(/:[A-Za-z]+/g, "x"));

describe("console hardening", { timeout: 60_000 }, () => {
  it("refuses a forged POST on every state-changing route: without the form's token, and from another site with it", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const paths = postRoutes();
    expect(paths).toEqual(expect.arrayContaining(["/sign-out", "/networks/x/delete", "/enrolment-keys", "/admin/settings"]));
    for (const path of paths) {
      const noToken = await agent.post(path, { _csrf: "" });
      expect(noToken.status, path).toBe(403);
      expect(noToken.text, path).toContain("CSRF check");
      const crossSite = await agent.post(path, {}, { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.test" });
      expect(crossSite.status, path).toBe(403);
    }
    // Nothing above reached the API: the session is still there.
    expect((await agent.get("/networks")).status).toBe(200);
  });

  it("answers every page with HSTS, isolation from other windows and sites, and no caching", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    for (const path of ["/sign-in", "/networks", "/networks/net_unknown"]) {
      const page = await agent.get(path);
      expect(page.headers.get("Strict-Transport-Security"), path).toBe("max-age=31536000");
      expect(page.headers.get("Cross-Origin-Opener-Policy"), path).toBe("same-origin");
      expect(page.headers.get("Cross-Origin-Resource-Policy"), path).toBe("same-origin");
      expect(page.headers.get("Cache-Control"), path).toBe("no-store");
    }
  });

  it("has no state-changing GET: sign-out by link does nothing", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    expect((await agent.get("/sign-out")).status).toBe(404);
    expect((await api(agent.cookies.get("__Host-wgo_at")).GET("/api/v1/users/me")).response.status).toBe(200);
  });

  it("survives two pages refreshing at once with one refresh token (the API's reuse grace answers both)", async () => {
    const user = await createUser(await signInAdmin());
    const agent = await signedInAgent(user.email, PASSWORD);
    agent.cookies.delete("__Host-wgo_at"); // both requests below find the access token gone and refresh
    const [first, second] = await Promise.all([agent.get("/networks"), agent.get("/groups")]);
    expect([first.status, second.status]).toEqual([200, 200]);
    // Whichever answer's cookies the browser kept last, the session lives on.
    agent.cookies.delete("__Host-wgo_at");
    expect((await agent.get("/networks")).status).toBe(200);
    expect((await api(agent.cookies.get("__Host-wgo_at")).GET("/api/v1/users/me")).data?.id).toBe(user.userId);
  });

  it("ends console access at once when an admin disables the user, and forgets the cookies", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const agent = await signedInAgent(user.email, PASSWORD);
    expect((await agent.get("/networks")).status).toBe(200);
    expectStatus(
      await api(admin.token).PATCH("/api/v1/users/{id}", { params: { path: { id: user.userId } }, body: { disabled: true } }),
      200,
    );
    const page = await agent.get("/networks");
    expect(page.status).toBe(303);
    expect(page.location).toBe("/sign-in");
    expect(agent.cookies.has("__Host-wgo_at")).toBe(false);
    expect(agent.cookies.has("__Host-wgo_rt")).toBe(false);
  });

  it("never lets a secret shown once be cached, and keeps it out of URLs", async () => {
    const { owner, network } = await networkSetup({ owner: "user" });
    const agent = await signedInAgent(owner.email, PASSWORD);
    const key = await agent.post("/enrolment-keys", { network: network.id, name: "once", usageLimit: "1", expiresInSeconds: "3600" });
    expect(key.status).toBe(201);
    expect(key.location).toBeNull();
    expect(key.headers.get("Cache-Control")).toBe("no-store");

    const gateway = await createGateway(await signInAdmin());
    const admin = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const token = await admin.post("/admin/agents/tokens", { kind: "gateway-daemon", gatewayId: gateway.id });
    expect(token.status).toBe(201);
    expect(token.location).toBeNull();
    expect(token.headers.get("Cache-Control")).toBe("no-store");
  });

  it("shows the API's sentence on an error page, never a stack or an API path", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    for (const path of ["/networks/net_unknown", "/groups/grp_unknown", "/networks/net_unknown/dns/corefile"]) {
      const page = await agent.get(path);
      expect(page.status, path).toBe(404);
      expect(page.text, path).toMatch(/not found/);
      expect(page.text, path).not.toMatch(/\/api\/v1|at \w+ \(|Error:/);
    }
  });

  it("refuses a form body that does not parse (bad multipart) with the CSRF page, not a 500", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const answer = await agent.request("/networks", {
      method: "POST",
      body: "not multipart at all",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Sec-Fetch-Site": "same-origin" },
    });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain("CSRF check");
  });

  it("answers a list the API refuses (a cursor it cannot read) with its status and sentence, not a 500", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const page = await agent.get("/networks?cursor=garbage");
    expect(page.status).toBe(422);
    expect(page.text).toContain('role="alert"');
    expect(page.text).not.toMatch(/Internal Server Error|at \w+ \(/);
  });
});
