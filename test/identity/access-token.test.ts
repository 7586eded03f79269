import { env } from "cloudflare:workers";
import { SignJWT, importJWK, decodeProtectedHeader } from "jose";
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { signInAdmin } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";

const [current, previous] = JSON.parse(env.JWT_SIGNING_KEYS!) as Record<string, string>[];
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

async function forge(
  claims: Record<string, unknown>,
  options: { jwk?: Record<string, string>; kid?: string; audience?: string; exp?: string } = {},
) {
  const jwk = options.jwk ?? current!;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "EdDSA", kid: options.kid ?? jwk.kid })
    .setIssuer(env.JWT_ISSUER!)
    .setAudience(options.audience ?? "wg-overlay:user")
    .setIssuedAt()
    .setJti("jti-test")
    .setExpirationTime(options.exp ?? "5m")
    .sign(await importJWK(jwk, "EdDSA"));
}

describe("access tokens", () => {
  it("carries a kid from the key set and verifies with the current key", async () => {
    const session = await signInAdmin();
    expect(decodeProtectedHeader(session.token)).toMatchObject({ alg: "EdDSA", kid: current!.kid });
  });

  it("a token signed by the previous key (rotation) is still accepted", async () => {
    const session = await signInAdmin();
    const sid = JSON.parse(Buffer.from(session.token.split(".")[1]!, "base64url").toString()).sid;
    const token = await forge({ sub: session.userId, sid, role: "admin" }, { jwk: previous });
    expect((await get("/users/me", token)).status).toBe(200);
  });

  it("a token whose role claim no longer matches the user's role is refused, on reads and writes", async () => {
    const session = await signInAdmin();
    const sid = JSON.parse(Buffer.from(session.token.split(".")[1]!, "base64url").toString()).sid;
    const stale = await forge({ sub: session.userId, sid, role: "user" });
    const read = await get("/users/me", stale);
    expect(read.status).toBe(401);
    expect(read.body.error.code).toBe("unauthorized");
    expectError(await post("/groups", { name: "x" }, stale), 401, "unauthorized");
  });

  it.each([
    [
      "alg none",
      async (sub: string, sid: string) =>
        `${b64url({ alg: "none", typ: "JWT" })}.${b64url({ sub, sid, iss: env.JWT_ISSUER, aud: "wg-overlay:user", exp: 4e9, iat: 1, jti: "x" })}.`,
    ],
    [
      "a key we never issued",
      async (sub: string, sid: string) =>
        forge(
          { sub, sid },
          { jwk: { ...generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }), kid: current!.kid } as Record<string, string> },
        ),
    ],
    ["an unknown kid", async (sub: string, sid: string) => forge({ sub, sid }, { kid: "nope" })],
    ["an expired token", async (sub: string, sid: string) => forge({ sub, sid }, { exp: "-1m" })],
    ["another audience (device tokens)", async (sub: string, sid: string) => forge({ sub, sid }, { audience: "wg-overlay:device" })],
    [
      "a tampered payload",
      async (sub: string, sid: string) => {
        const [h, , s] = (await forge({ sub, sid })).split(".");
        return `${h}.${b64url({ sub: "usr_someone_else", sid, iss: env.JWT_ISSUER, aud: "wg-overlay:user", exp: 4e9, iat: 1, jti: "x" })}.${s}`;
      },
    ],
    ["a token of an unknown session", async (sub: string) => forge({ sub, sid: "ses_missing" })],
  ])("rejects %s with 401", async (_label, make) => {
    const session = await signInAdmin();
    const sid = JSON.parse(Buffer.from(session.token.split(".")[1]!, "base64url").toString()).sid;
    const response = await get("/users/me", await make(session.userId, sid));
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("unauthorized");
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("rejects a missing or malformed Authorization header", async () => {
    expectError(await get("/users/me"), 401, "unauthorized");
    expectError(await get("/users/me", "not.a.jwt"), 401, "unauthorized");
  });
});
