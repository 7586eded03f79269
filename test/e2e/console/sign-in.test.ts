// Issue 18: the console's sessions in a real browser (Debian's Chromium through playwright-core) against the
// real Worker (`wrangler dev`): sign in with a password and with the MFA step, the cookies' flags as the
// browser stored them, logout ending the session for good, and a forged cross-site form refused.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { expectAnswer, login, typedApi } from "../support/api-client.ts";
import { describeInChromium, launchBrowser, openOriginPage } from "../support/browser.ts";
import { totp } from "../support/totp.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";

describeInChromium("console sign-in in Chromium", () => {
  let server: WorkerServer;
  let chromium: Browser;
  const password = "a long enough password";

  beforeAll(async () => {
    [server, chromium] = await Promise.all([startWorker(), launchBrowser()]);
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.stop();
  });

  async function signIn(email: string, secret: string) {
    const tab = await openOriginPage(chromium, server.baseUrl);
    await tab.page.goto(`${server.baseUrl}/`);
    await tab.page.getByLabel("Email").fill(email);
    await tab.page.getByLabel("Password").fill(secret);
    await tab.page.getByRole("button", { name: "Sign in" }).click();
    return tab;
  }

  it("signs in with a password into httpOnly, Secure, SameSite cookies, and logout ends the session", async () => {
    const tab = await signIn(server.admin.email, server.admin.password);
    try {
      await tab.page.getByRole("heading", { name: "Networks" }).waitFor();
      const cookies = await tab.page.context().cookies();
      const access = cookies.find((cookie) => cookie.name === "__Host-wgo_at");
      expect(access).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
      // Page scripts cannot read the tokens.
      expect(await tab.page.evaluate("document.cookie")).not.toContain("wgo_at");

      await tab.page.getByRole("button", { name: "Sign out" }).click();
      await tab.page.getByRole("heading", { name: "Sign in" }).waitFor();
      // The old access token is dead at the API, not only forgotten by the browser.
      expect((await typedApi(server.baseUrl, access?.value).GET("/api/v1/users/me")).response.status).toBe(401);
      await tab.page.goto(`${server.baseUrl}/networks`);
      await tab.page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(tab.blocked).toEqual([]);
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it("asks for the second factor when the account has MFA on", async () => {
    const admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    const email = `mfa-${crypto.randomUUID().slice(0, 8)}@example.com`;
    expectAnswer(await admin.POST("/api/v1/users", { body: { email, password, name: "Mfa User" } }), 201, "create user");
    const user = typedApi(server.baseUrl, await login(server.baseUrl, { email, password }));
    const { secret } = expectAnswer(await user.POST("/api/v1/auth/mfa/enroll"), 200, "enrol MFA");
    expectAnswer(await user.POST("/api/v1/auth/mfa/activate", { body: { code: totp(secret), password } }), 200, "activate MFA");

    const tab = await signIn(email, password);
    try {
      await tab.page.getByRole("heading", { name: "Two-factor code" }).waitFor();
      await tab.page.getByLabel(/authenticator app/).fill("000000");
      await tab.page.getByRole("button", { name: "Verify" }).click();
      await tab.page.getByRole("alert").getByText("That code is not valid").waitFor();
      await tab.page.getByLabel(/authenticator app/).fill(totp(secret, 1));
      await tab.page.getByRole("button", { name: "Verify" }).click();
      await tab.page.getByRole("heading", { name: "Networks" }).waitFor();
      await tab.page.getByText(email).waitFor(); // the header names who is signed in
    } finally {
      await tab.close();
    }
  });

  it("refuses a form another site makes the signed-in browser submit", async () => {
    const admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
    const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: `csrf-${Date.now()}` } }), 201, "group");
    const forgedName = `forged-${Date.now()}`;
    // The attacker's page: another site (127.0.0.2 vs 127.0.0.1, another port) that auto-submits a form.
    const evil = await serveOnce(`<form method="post" action="${server.baseUrl}/networks">
      <input name="groupId" value="${group.id}"><input name="name" value="${forgedName}"><input name="cidr" value="10.99.0.0/24">
      </form><script>document.forms[0].submit()</script>`);
    const context = await chromium.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/`);
      await page.getByLabel("Email").fill(server.admin.email);
      await page.getByLabel("Password").fill(server.admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Networks" }).waitFor();

      const answer = page.waitForResponse(
        (response) => response.url() === `${server.baseUrl}/networks` && response.request().method() === "POST",
      );
      await page.goto(evil.url);
      expect((await answer).status()).toBe(403);
      await page.getByText("CSRF").waitFor();
      const networks = expectAnswer(await admin.GET("/api/v1/networks", { params: { query: { limit: 200 } } }), 200, "networks");
      expect(networks.items.map((network) => network.name)).not.toContain(forgedName);
    } finally {
      await context.close();
      evil.server.close();
    }
  });
});

/** One HTML page on another site: http://127.0.0.2:<port> (all of 127/8 is loopback; no name to resolve). */
async function serveOnce(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  return { url: `http://127.0.0.2:${(server.address() as AddressInfo).port}/`, server };
}
