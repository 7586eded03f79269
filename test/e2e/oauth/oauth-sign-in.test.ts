// OAuth sign-in against a real OpenID Connect provider (oidc-provider) and the real Worker (wrangler dev):
// authorization code + PKCE, state bound to the browser, linking only on a verified email, MFA on top.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, expectErrorIn } from "../../helpers/expect-error.ts";
import { expectAnswer, login, typedApi, type TypedApiClient } from "../support/api-client.ts";
import { totp } from "../support/totp.ts";
import { startWorker, type WorkerServer } from "../support/worker-server.ts";
import { authorizeAtProvider, Browser, startProvider, type LocalProvider } from "./oidc-provider.ts";

const PASSWORD = "a long enough password";

describe("OAuth sign-in with a generic OpenID Connect provider", () => {
  let provider: LocalProvider;
  let server: WorkerServer;
  let admin: TypedApiClient;
  let callbackPrefix: string;

  beforeAll(async () => {
    provider = await startProvider();
    server = await startWorker({
      vars: { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId, OIDC_CLIENT_SECRET: provider.clientSecret },
    });
    callbackPrefix = `${server.baseUrl}/api/v1/auth/oauth/oidc/callback`;
    provider.configure(callbackPrefix, `${server.baseUrl}/sign-in/oauth/oidc/callback`);
    admin = typedApi(server.baseUrl, await login(server.baseUrl, server.admin));
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.stop();
  });

  async function createAccount(label: string) {
    const email = `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const created = expectAnswer(
      await admin.POST("/api/v1/users", { body: { email, password: PASSWORD, name: label } }),
      201,
      "create user",
    );
    return { email, id: created.id };
  }

  /** Our start leg: the 302 to the provider and the state cookie it sets. */
  async function start(browser: Browser) {
    const response = await browser.request(`${server.baseUrl}/api/v1/auth/oauth/oidc/start`);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("state")).toBe(browser.cookie("wg_oauth_state"));
    return location.toString();
  }

  async function callback(browser: Browser, url: string) {
    const response = await browser.request(url);
    return { status: response.status, body: (await response.json()) as any };
  }

  async function signInAs(accountLogin: string) {
    const browser = new Browser();
    const returned = await authorizeAtProvider(browser, await start(browser), accountLogin, callbackPrefix);
    return callback(browser, returned);
  }

  it("links a verified email to the existing account and answers a token pair; the link is then by subject", async () => {
    const account = await createAccount("alice");
    provider.accounts.set("alice-sub", { email: account.email.toUpperCase(), emailVerified: true });
    const first = await signInAs("alice-sub");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ tokenType: "Bearer", user: { id: account.id, email: account.email } });
    expect(expectAnswer(await typedApi(server.baseUrl, first.body.accessToken).GET("/api/v1/users/me"), 200, "me").id).toBe(account.id);
    expectAnswer(
      await typedApi(server.baseUrl).POST("/api/v1/auth/refresh", { body: { refreshToken: first.body.refreshToken } }),
      200,
      "refresh",
    );

    // The provider's address changes: the (provider, subject) link still signs in the same account.
    provider.accounts.set("alice-sub", { email: "changed@example.net", emailVerified: false });
    const again = await signInAs("alice-sub");
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(account.id);
  });

  it("does not link an unverified email, nor sign in where no account uses the email", async () => {
    const bob = await createAccount("bob");
    provider.accounts.set("mallory-sub", { email: bob.email, emailVerified: false });
    const refused = await signInAs("mallory-sub");
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expectError(await signInAs("mallory-sub"), 403, "forbidden"); // nothing was linked the first time

    provider.accounts.set("stranger-sub", { email: `nobody-${crypto.randomUUID()}@example.com`, emailVerified: true });
    expectError(await signInAs("stranger-sub"), 403, "forbidden");
  });

  it("refuses a tampered state, a callback without this browser's cookie, and a replayed callback", async () => {
    const account = await createAccount("carol");
    provider.accounts.set("carol-sub", { email: account.email, emailVerified: true });

    const browser = new Browser();
    const returned = new URL(await authorizeAtProvider(browser, await start(browser), "carol-sub", callbackPrefix));
    const tampered = new URL(returned);
    tampered.searchParams.set("state", `${returned.searchParams.get("state")!.slice(0, -2)}AA`);
    const wrongState = await callback(browser, tampered.toString());
    expect(wrongState.status).toBe(401);
    expect(wrongState.body.error.code).toBe("unauthorized");

    // The attacker's own browser finishing the flow cannot be replayed into another browser (login CSRF).
    expectError(await callback(new Browser(), returned.toString()), 401, "unauthorized");

    // The forged attempts did not spend the real flow.
    const ok = await callback(browser, returned.toString());
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.user.id).toBe(account.id);
    // Replayed: the state is single use (the cookie is gone too; put it back to prove the server refuses).
    const forgedCookie = await fetch(returned, { headers: { cookie: `wg_oauth_state=${returned.searchParams.get("state")}` } });
    await expectErrorIn(forgedCookie, 401, "unauthorized");
  });

  it("refuses a code redeemed with another flow's PKCE verifier (the provider checks it)", async () => {
    const account = await createAccount("dave");
    provider.accounts.set("dave-sub", { email: account.email, emailVerified: true });
    const victim = new Browser();
    const returnedA = new URL(await authorizeAtProvider(victim, await start(victim), "dave-sub", callbackPrefix));

    // A second flow started in another browser: its state (and so its derived verifier) pairs with code A.
    const attacker = new Browser();
    await start(attacker);
    const swapped = new URL(returnedA);
    swapped.searchParams.set("state", attacker.cookie("wg_oauth_state")!);
    const refused = await callback(attacker, swapped.toString());
    expectError(refused, 401, "unauthorized");
    expect(refused.body.error.message).toMatch(/invalid_grant/);
  });

  it("answers an MFA challenge instead of tokens when the account has MFA on", async () => {
    const account = await createAccount("erin");
    provider.accounts.set("erin-sub", { email: account.email, emailVerified: true });
    const session = typedApi(server.baseUrl, await login(server.baseUrl, { email: account.email, password: PASSWORD }));
    const { secret } = expectAnswer(await session.POST("/api/v1/auth/mfa/enroll"), 200, "enrol MFA");
    expectAnswer(
      await session.POST("/api/v1/auth/mfa/activate", { body: { code: totp(secret), password: PASSWORD } }),
      200,
      "activate MFA",
    );

    const result = await signInAs("erin-sub");
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ mfaRequired: true, mfaToken: expect.stringMatching(/^mfa_/), expiresIn: 300 });
    const verified = expectAnswer(
      await typedApi(server.baseUrl).POST("/api/v1/auth/mfa/verify", {
        body: { mfaToken: result.body.mfaToken, code: totp(secret, 1) },
      }),
      200,
      "verify MFA",
    );
    expect(verified.user.id).toBe(account.id);
  });

  it("signs in through the console: the provider returns to the console, which keeps the tokens in its cookies", async () => {
    const account = await createAccount("olga");
    provider.accounts.set("olga-sub", { email: account.email, emailVerified: true });
    const browser = new Browser();
    const started = await browser.request(`${server.baseUrl}/sign-in/oauth/oidc`);
    expect(started.status).toBe(302);
    const consoleCallback = `${server.baseUrl}/sign-in/oauth/oidc/callback`;
    const authorization = new URL(started.headers.get("location")!);
    expect(authorization.searchParams.get("redirect_uri")).toBe(consoleCallback);
    expect(browser.cookie("__Host-wgo_oauth")).toBe(authorization.searchParams.get("state"));

    const returned = await authorizeAtProvider(browser, authorization.toString(), "olga-sub", consoleCallback);
    // The same callback URL in a browser that did not start the flow (no state cookie) signs nobody in.
    const elsewhere = await new Browser().request(returned);
    expect(elsewhere.status).toBe(401);
    expect(await elsewhere.text()).toContain("does not match");

    const landed = await browser.request(returned);
    expect(landed.status).toBe(303);
    expect(landed.headers.get("location")).toBe("/networks");
    const accessToken = browser.cookie("__Host-wgo_at");
    expect(expectAnswer(await typedApi(server.baseUrl, accessToken).GET("/api/v1/users/me"), 200, "me").id).toBe(account.id);
    expect((await browser.request(`${server.baseUrl}/networks`)).status).toBe(200);
  });

  it("reads the groups claim at every sign-in: a mapped group gives its role (source idp); a claim without it takes the role away; no claim changes nothing", async () => {
    const account = await createAccount("grace");
    const group = expectAnswer(await admin.POST("/api/v1/groups", { body: { name: "claimed-groups" } }), 201, "group");
    expectAnswer(
      await admin.POST("/api/v1/admin/idp-group-mappings", { body: { idpGroup: "Engineering", groupId: group.id, role: "admin" } }),
      201,
      "mapping",
    );
    const membership = async () => {
      const page = expectAnswer(await admin.GET("/api/v1/groups/{id}/members", { params: { path: { id: group.id } } }), 200, "members");
      return page.items.find((member) => member.userId === account.id);
    };
    const claim = (groups?: string[]) => provider.accounts.set("grace-sub", { email: account.email, emailVerified: true, groups });

    claim(["Engineering", "Everyone"]);
    const first = await signInAs("grace-sub");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(await membership()).toMatchObject({ role: "admin", source: "idp" });

    // No claim in the token: what the last one said stands.
    claim(undefined);
    expect((await signInAs("grace-sub")).status).toBe(200);
    expect(await membership()).toMatchObject({ role: "admin", source: "idp" });

    // Leaving the only mapped group, with nothing given by hand: earlier sessions end; this sign-in opens on no group.
    claim(["Everyone"]);
    const last = await signInAs("grace-sub");
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(await membership()).toBeUndefined();
    expect((await typedApi(server.baseUrl, first.body.accessToken).GET("/api/v1/users/me")).response.status).toBe(401);
    expect((await typedApi(server.baseUrl, last.body.accessToken).GET("/api/v1/users/me")).response.status).toBe(200);
  });

  it("answers 404 for providers that are unknown or not configured", async () => {
    for (const name of ["facebook", "github", "google"]) {
      const response = await fetch(`${server.baseUrl}/api/v1/auth/oauth/${name}/start`, { redirect: "manual" });
      expect(response.status).toBe(404);
      expect(((await response.json()) as any).error.code).toBe("not_found");
    }
  });
});
