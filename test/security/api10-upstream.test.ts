import { beforeAll, describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { createGroup, createUser, signInAdmin, unique, type Session } from "../helpers/factories";
import { appWith, spyOnOutbound } from "./outbound";

/**
 * OWASP API10:2023 Unsafe Consumption of APIs: when an upstream the Worker depends on (OAuth provider,
 * mail relay, webhook receiver) is down or answers garbage, the API answers 502 bad_gateway in the
 * envelope (or, where the flow is asynchronous or must not leak, its normal answer), never a 500.
 */
let admin: Session;
beforeAll(async () => {
  admin = await signInAdmin();
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const down = () => Promise.reject(new TypeError("Network connection lost."));

/** An OIDC provider at a fresh issuer (discovery is cached per issuer) whose token endpoint answers `token`. */
function oidc(token: () => Response | Promise<Response>, discovery = true) {
  const issuer = `https://${unique("idp")}.example`;
  const outbound = spyOnOutbound((url) => {
    if (url.pathname === "/.well-known/openid-configuration") {
      return discovery
        ? json({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` })
        : down();
    }
    if (url.pathname === "/token") return token();
    return json({ keys: [] });
  });
  const request = appWith({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: "client", OIDC_CLIENT_SECRET: "client-secret" });
  return { request, outbound };
}

/** Runs the start leg and the callback leg like a browser: the state cookie travels back. */
async function callback(request: ReturnType<typeof appWith>) {
  const start = await request("/auth/oauth/oidc/start");
  expect(start.status, await start.clone().text()).toBe(302);
  const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
  const cookie = start.headers.get("set-cookie")!.split(";")[0]!;
  return request(`/auth/oauth/oidc/callback?code=abc&state=${encodeURIComponent(state)}`, { headers: { Cookie: cookie } });
}

async function expectBadGateway(response: Response) {
  const text = await response.text();
  expect(response.status, text).toBe(502);
  expect(JSON.parse(text)).toEqual({ error: { code: "bad_gateway", message: expect.any(String) } });
}

describe("API10 the OAuth provider", () => {
  it("unreachable at discovery: start answers 502", async () => {
    const { request } = oidc(() => json({}), false);
    await expectBadGateway(await request("/auth/oauth/oidc/start"));
  });

  it("unreachable at the token endpoint: the callback answers 502", async () => {
    const { request, outbound } = oidc(down);
    await expectBadGateway(await callback(request));
    expect(outbound.calls.some((c) => c.url.pathname === "/token")).toBe(true);
  });

  it("answering 200 with a body that is not JSON at the token endpoint: a refused sign-in, no 500, no session", async () => {
    const { request } = oidc(() => new Response("not json", { status: 200, headers: { "Content-Type": "application/json" } }));
    const response = await callback(request);
    expect([401, 502]).toContain(response.status);
    expect(await response.json()).toEqual({
      error: { code: expect.stringMatching(/^(unauthorized|bad_gateway)$/), message: expect.any(String) },
    });
  });

  // Found in review: a provider outage (5xx) used to answer 401 "did not validate", blaming the user.
  it("answering 503 at the token endpoint: 502, not 401", async () => {
    const { request } = oidc(() => new Response("<html>down</html>", { status: 503, headers: { "Content-Type": "text/html" } }));
    await expectBadGateway(await callback(request));
  });
});

describe("API10 the mail relay (MAIL_TRANSPORT=http)", () => {
  const relay = { MAIL_TRANSPORT: "http", MAIL_HTTP_URL: "https://relay.example/send", MAIL_HTTP_TOKEN: "relay-token" };

  it.each([
    ["unreachable", down],
    ["refusing (500)", () => json({ message: "quota" }, 500)],
  ])("%s: an invite answers 502 and is not left usable", async (_label, answer) => {
    const outbound = spyOnOutbound(answer);
    const request = appWith(relay);
    const group = await createGroup(admin);
    const response = await request(`/groups/${group.id}/invites`, {
      method: "POST",
      token: admin.token,
      json: { email: `${unique("i")}@example.com`, role: "member" },
    });
    await expectBadGateway(response);
    expect(outbound.calls.map((c) => c.url.hostname)).toEqual(["relay.example"]);
    const invites = await get(`/groups/${group.id}/invites`, admin.token);
    expect(invites.body.items.filter((i: { status: string }) => i.status === "pending")).toEqual([]);
  });

  it("a re-invite the relay refuses leaves the earlier pending invite usable; a delivered one replaces it", async () => {
    const group = await createGroup(admin);
    const email = `${unique("re")}@example.com`;
    const first = await post(`/groups/${group.id}/invites`, { email, role: "member" }, admin.token);
    expect(first.status).toBe(201);
    spyOnOutbound(down);
    await expectBadGateway(
      await appWith(relay)(`/groups/${group.id}/invites`, { method: "POST", token: admin.token, json: { email, role: "admin" } }),
    );
    const statuses = async () =>
      Object.fromEntries(
        (await get(`/groups/${group.id}/invites`, admin.token)).body.items.map((i: { id: string; status: string }) => [i.id, i.status]),
      );
    expect((await statuses())[first.body.id]).toBe("pending");
    const second = await post(`/groups/${group.id}/invites`, { email, role: "admin" }, admin.token);
    expect(second.status).toBe(201);
    expect(await statuses()).toMatchObject({ [first.body.id]: "revoked", [second.body.id]: "pending" });
  });

  it("two re-invites at once leave exactly one pending invite (the newest), never none", async () => {
    const group = await createGroup(admin);
    const email = `${unique("race")}@example.com`;
    expect((await post(`/groups/${group.id}/invites`, { email, role: "member" }, admin.token)).status).toBe(201);
    const racing = await Promise.all([1, 2, 3].map(() => post(`/groups/${group.id}/invites`, { email, role: "viewer" }, admin.token)));
    expect(racing.map((answer) => answer.status)).toEqual([201, 201, 201]);
    const items = (await get(`/groups/${group.id}/invites`, admin.token)).body.items as { status: string }[];
    expect(items.filter((item) => item.status === "pending")).toHaveLength(1);
  });

  it("unreachable: a password reset still answers 202, exactly like for an unknown address", async () => {
    spyOnOutbound(down);
    const request = appWith(relay);
    const user = await createUser(admin);
    const known = await request("/auth/password-reset/request", {
      method: "POST",
      json: { email: user.email },
      headers: { "CF-Connecting-IP": "198.51.100.71" },
    });
    const unknown = await request("/auth/password-reset/request", {
      method: "POST",
      json: { email: "nobody@example.com" },
      headers: { "CF-Connecting-IP": "198.51.100.72" },
    });
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.json()).toEqual(await unknown.json());
  });
});

describe("API10 webhook receivers", () => {
  it.each([
    ["unreachable", down],
    ["answering 500 with a huge body", () => new Response("x".repeat(1 << 20), { status: 500 })],
  ])("%s: the channel test answers 201 with the failure recorded, not a 5xx", async (_label, answer) => {
    const user = await createUser(admin);
    const channel = await post(
      "/notifications/channels",
      { type: "webhook", target: "https://hooks.example.com/down", events: ["node.offline"] },
      user.token,
    );
    spyOnOutbound(answer);
    const delivery = await post(`/notifications/channels/${channel.body.id}/test`, undefined, user.token);
    expect(delivery.status, delivery.text).toBe(201);
    expect(delivery.body.status).not.toBe("delivered");
    expect(delivery.body.lastError).toEqual(expect.any(String));
    expect(delivery.text.length).toBeLessThan(4_096);
  });
});
