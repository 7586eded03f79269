import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createGroup, createUser, signInAdmin, unique } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { ConsoleAgent, setCookiesOf, signedInAgent } from "./support/console-agent";

describe("console sessions", () => {
  it("signs in through its own route and keeps the API's tokens in httpOnly, Secure, SameSite cookies", async () => {
    const agent = new ConsoleAgent();
    const page = await agent.get("/sign-in");
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="_csrf"');
    expect(page.headers.get("Content-Security-Policy")).toContain("script-src 'self'");

    const answer = await agent.post("/sign-in", TEST_ADMIN);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/networks");
    const setCookies = setCookiesOf(answer.headers);
    for (const name of ["__Host-wgo_at", "__Host-wgo_rt"]) {
      const line = setCookies.find((cookie) => cookie.startsWith(`${name}=`));
      expect(line, name).toMatch(/HttpOnly/);
      expect(line, name).toMatch(/Secure/);
      expect(line, name).toMatch(/SameSite=Lax/);
      expect(line, name).toMatch(/Path=\//);
    }
    // The cookie is the API's own access token: the API accepts it with the bearer header.
    const me = await api(agent.cookies.get("__Host-wgo_at")).GET("/api/v1/users/me");
    expect(me.data?.email).toBe(TEST_ADMIN.email);
  });

  it("says plainly when the password is wrong, and sets no session", async () => {
    const agent = new ConsoleAgent();
    await agent.get("/sign-in");
    const answer = await agent.post("/sign-in", { email: TEST_ADMIN.email, password: "not the password" });
    expect(answer.status).toBe(401);
    expect(answer.text).toContain("Wrong email or password.");
    expect(agent.cookies.has("__Host-wgo_at")).toBe(false);
  });

  it("sends a visitor without a session to the sign-in page", async () => {
    const answer = await new ConsoleAgent().get("/networks");
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/sign-in");
  });

  it("refreshes before the access token expires, with the refresh cookie alone", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const oldRefresh = agent.cookies.get("__Host-wgo_rt");
    agent.cookies.delete("__Host-wgo_at"); // as if it had expired in the browser
    const page = await agent.get("/networks");
    expect(page.status).toBe(200);
    expect(agent.cookies.get("__Host-wgo_at")).toBeTruthy();
    expect(agent.cookies.get("__Host-wgo_rt")).not.toBe(oldRefresh); // the API rotated it
  });

  it("ends the session at sign-out: the old cookies no longer work, at the console or at the API", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const stolen = new Map(agent.cookies);
    const out = await agent.post("/sign-out", {});
    expect(out.location).toBe("/sign-in");
    expect(agent.cookies.has("__Host-wgo_at")).toBe(false);

    const replay = new ConsoleAgent();
    for (const [name, value] of stolen) replay.cookies.set(name, value);
    const page = await replay.get("/networks");
    expect(page.status).toBe(303);
    expect(page.location).toBe("/sign-in");
    expect((await api(stolen.get("__Host-wgo_at")).GET("/api/v1/users/me")).response.status).toBe(401);
  });
});

describe("console CSRF defence", () => {
  it("refuses a state-changing POST without the form's token, or from another site, before calling the API", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const name = unique("forged");
    const fields = { groupId: group.id, name, cidr: "10.77.0.0/24" };

    const noToken = await agent.post("/networks", { ...fields, _csrf: "" });
    const wrongToken = await agent.post("/networks", { ...fields, _csrf: "x".repeat(43) });
    const crossSite = await agent.post("/networks", fields, { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    const noBrowserHeaders = await agent.request("/networks", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, _csrf: agent.cookies.get("__Host-wgo_csrf") ?? "" }),
    });
    for (const answer of [noToken, wrongToken, crossSite, noBrowserHeaders]) {
      expect(answer.status).toBe(403);
      expect(answer.text).toContain("CSRF");
    }
    const networks = await api(admin.token).GET("/api/v1/networks", { params: { query: { limit: 200 } } });
    expect(networks.data?.items.some((network) => network.name === name)).toBe(false);

    const genuine = await agent.post("/networks", fields);
    expect(genuine.status).toBe(303);
    expect(genuine.location).toMatch(/^\/networks\/net_/);
  });
});

describe("console networks page", () => {
  it("offers creating networks only in groups the user may change", async () => {
    const admin = await signInAdmin();
    const viewer = await createUser(admin);
    const group = await createGroup(admin);
    expect(
      (
        await api(admin.token).POST("/api/v1/groups/{id}/members", {
          params: { path: { id: group.id } },
          body: { userId: viewer.userId, role: "viewer" },
        })
      ).response.status,
    ).toBe(201);
    const agent = await signedInAgent(viewer.email, "a long enough password");
    const page = await agent.get("/networks");
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Create a network");
  });
});

describe("console request limits", () => {
  it("refuses a form body over 64 KiB before reading it", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const answer = await agent.post("/networks", { name: "x".repeat(70_000) });
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("64 KiB");
  });
});
