import { env } from "cloudflare:workers";
import { createHmac, createPrivateKey, generateKeyPairSync, sign as edSign } from "node:crypto";
import { exportJWK, importJWK, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { createUser, enrolDevice, fakePublicKey, signInAdmin, type Session } from "../helpers/factories";
import { buildTenants, type Tenants } from "./tenants";
import { expectError } from "../helpers/expect-error";

/**
 * OWASP API2:2023 Broken Authentication. test/identity/access-token.test.ts covers alg none, a foreign key,
 * an unknown kid, expiry, another audience, a tampered payload and an unknown session; these are the
 * remaining forgeries, credentials used where another kind belongs, and sign-in enumeration.
 */
const [current] = JSON.parse(env.JWT_SIGNING_KEYS!) as Record<string, string>[];
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

async function sign(claims: Record<string, unknown>, header: Record<string, unknown> = {}, key?: Record<string, string>) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "EdDSA", kid: current!.kid, ...header })
    .sign(await importJWK(key ?? current!, "EdDSA"));
}

let t: Tenants;
let session: Session;
beforeAll(async () => {
  t = await buildTenants();
  session = await createUser(t.admin);
}, 60_000);

describe("API2 broken authentication: forged access tokens", () => {
  const valid = () => ({ ...claimsOf(session.token) });

  it.each([
    [
      "HS256 signed with the public key as the secret (algorithm confusion)",
      async () => {
        const header = b64url({ alg: "HS256", typ: "JWT", kid: current!.kid });
        const body = b64url(valid());
        const { d: _private, ...publicJwk } = current!;
        const mac = createHmac("sha256", JSON.stringify(publicJwk)).update(`${header}.${body}`).digest("base64url");
        return `${header}.${body}.${mac}`;
      },
    ],
    ["another issuer", () => sign({ ...valid(), iss: "https://evil.example" })],
    [
      "no jti",
      () => {
        const { jti: _jti, ...rest } = valid();
        return sign(rest);
      },
    ],
    [
      "no exp",
      () => {
        const { exp: _exp, ...rest } = valid();
        return sign(rest);
      },
    ],
    [
      "no iat",
      () => {
        const { iat: _iat, ...rest } = valid();
        return sign(rest);
      },
    ],
    [
      "no sub",
      () => {
        const { sub: _sub, ...rest } = valid();
        return sign(rest);
      },
    ],
    [
      "an unknown critical header",
      async () => {
        // jose refuses to sign this, so sign by hand with the real key: only the header is wrong.
        const input = `${b64url({ alg: "EdDSA", kid: current!.kid, crit: ["x-evil"], "x-evil": true })}.${b64url(valid())}`;
        const signature = edSign(null, Buffer.from(input), createPrivateKey({ key: current!, format: "jwk" }));
        return `${input}.${signature.toString("base64url")}`;
      },
    ],
    ["a kid that looks like a path", () => sign(valid(), { kid: "../../../../dev/null" })],
    [
      "a foreign key embedded in the header (jwk)",
      async () => {
        const { privateKey, publicKey } = generateKeyPairSync("ed25519");
        const foreign = { ...privateKey.export({ format: "jwk" }), kid: current!.kid } as Record<string, string>;
        return sign(valid(), { jwk: await exportJWK(publicKey) }, foreign);
      },
    ],
    [
      "a key URL in the header (jku)",
      async () => {
        const foreign = { ...generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }), kid: "evil" } as Record<string, string>;
        return sign(valid(), { kid: "evil", jku: "https://evil.example/jwks.json" }, foreign);
      },
    ],
    ["the agent audience", () => sign({ ...valid(), aud: "wg-overlay:agent" })],
    ["a signature stripped to nothing", async () => `${session.token.split(".").slice(0, 2).join(".")}.`],
  ])("rejects %s with 401", async (_label, make) => {
    const response = await get("/users/me", await make());
    expect(response.status, response.text).toBe(401);
    expect(response.body.error.code).toBe("unauthorized");
  });

  it("control: the same forging tools with nothing wrong produce an accepted token", async () => {
    expect((await get("/users/me", await sign(valid()))).status).toBe(200);
    const input = `${b64url({ alg: "EdDSA", kid: current!.kid })}.${b64url(valid())}`;
    const signature = edSign(null, Buffer.from(input), createPrivateKey({ key: current!, format: "jwk" }));
    expect((await get("/users/me", `${input}.${signature.toString("base64url")}`)).status).toBe(200);
  });

  it("accepts the token only in the Authorization header, not in the query or a cookie", async () => {
    expectError(await get(`/users/me?access_token=${session.token}`), 401, "unauthorized");
    expectError(
      await call("GET", "/users/me", { headers: { Cookie: `token=${session.token}; access_token=${session.token}` } }),
      401,
      "unauthorized",
    );
  });
});

describe("API2 broken authentication: one kind of credential never stands in for another", () => {
  it("a refresh token is not an access token, and an access token is not a refresh token", async () => {
    expectError(await get("/users/me", session.refreshToken), 401, "unauthorized");
    expectError(await post("/auth/refresh", { refreshToken: session.token }), 401, "unauthorized");
  });

  it("device credentials only work on the device's own client routes", async () => {
    for (const path of ["/users/me", "/networks", "/devices", `/devices/${t.a.device}`, "/nodes", "/agents/me"]) {
      const response = await get(path, t.secrets.aliceDeviceToken);
      expectError(response, 401, "unauthorized");
    }
    expectError(
      await post("/nodes", { networkId: t.a.network, name: "x", publicKey: fakePublicKey() }, t.secrets.aliceDeviceToken),
      401,
      "unauthorized",
    );
  });

  it("enrolment keys authenticate nothing but an enrolment", async () => {
    for (const path of ["/users/me", `/client/devices/${t.a.device}/config`, "/agents/me"]) {
      const response = await call(path.startsWith("/client") ? "POST" : "GET", path, { token: t.secrets.aliceKey });
      expectError(response, 401, "unauthorized");
    }
  });

  it("user access tokens do not authenticate agent routes", async () => {
    expectError(await get("/agents/me", t.alice.token), 401, "unauthorized");
    expectError(await get("/agents/me/desired-state", t.admin.token), 401, "unauthorized");
  });

  it("deleting a device ends its credential at once", async () => {
    const device = await enrolDevice(t.bob, { networkId: t.b.network, publicKey: fakePublicKey() });
    expect((await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken })).status).toBe(200);
    expect((await call("DELETE", `/devices/${device.deviceId}`, { token: t.bob.token })).status).toBe(204);
    expectError(await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken }), 401, "unauthorized");
  });
});

describe("API2 broken authentication: sign-in gives nothing away", () => {
  it("an unknown email and a wrong password answer identically", async () => {
    const wrongPassword = await call("POST", "/auth/login", {
      body: { email: session.email, password: "not the password" },
      headers: { "CF-Connecting-IP": "198.51.100.21" },
    });
    const unknownEmail = await call("POST", "/auth/login", {
      body: { email: "nobody-here@example.com", password: "not the password" },
      headers: { "CF-Connecting-IP": "198.51.100.21" },
    });
    expectError(wrongPassword, 401, "unauthorized");
    expectError(unknownEmail, 401, "unauthorized");
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it("a disabled account answers its right and a wrong password identically, and starts no session", async () => {
    const user = await createUser(t.admin);
    expect((await call("PATCH", `/users/${user.userId}`, { token: t.admin.token, body: { disabled: true } })).status).toBe(200);
    const sessions = () => env.DB.prepare("select count(*) as n from sessions where user_id = ?").bind(user.userId).first<{ n: number }>();
    const before = await sessions();
    const login = (password: string, address: string) =>
      call("POST", "/auth/login", { body: { email: user.email, password }, headers: { "CF-Connecting-IP": address } });
    const right = await login("a long enough password", "198.51.100.22");
    const wrong = await login("not the password", "198.51.100.23");
    expect(right.status, right.text).toBe(401);
    expect(right.body.error.code).toBe("unauthorized");
    expect(right.body).toEqual(wrong.body);
    expect(await sessions()).toEqual(before);
  });

  it("token responses are never cached", async () => {
    const admin = await signInAdmin();
    const refreshed = await post("/auth/refresh", { refreshToken: admin.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get("cache-control")).toBe("no-store");
  });
});
