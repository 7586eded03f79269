import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, patch, post } from "../helpers/api";
import { createUser, signIn, signInAdmin, type Session } from "../helpers/factories";
import { currentStep, expectError, expectRetryAfter, freshAddress, from, totp as totpAt } from "./identity-helpers";

const PASSWORD = "a long enough password";

/** A user with MFA on; the activation consumed the code of the current step. */
async function userWithMfa() {
  const user = await createUser(await signInAdmin());
  const enrolment = await post("/auth/mfa/enroll", undefined, user.token);
  expect(enrolment.status, enrolment.text).toBe(200);
  const { secret } = enrolment.body;
  const step = currentStep();
  const activated = await post("/auth/mfa/activate", { code: totpAt(secret, 0, step), password: PASSWORD }, user.token);
  expect(activated.status, activated.text).toBe(200);
  return { user, secret: secret as string, step, recoveryCodes: activated.body.recoveryCodes as string[] };
}

const sessionCount = async (userId: string) =>
  (await env.DB.prepare("select count(*) as n from sessions where user_id = ?").bind(userId).first<{ n: number }>())!.n;

async function challenge(user: Session, address = freshAddress()) {
  const response = await from(address).post("/auth/login", { email: user.email, password: PASSWORD });
  expect(response.status, response.text).toBe(200);
  expect(response.body).toEqual({ mfaRequired: true, mfaToken: expect.stringMatching(/^mfa_/), expiresIn: 300 });
  return response.body.mfaToken as string;
}

describe("MFA enrolment", { timeout: 30_000 }, () => {
  it("gives a 160-bit secret and otpauth URI, turns on with a first code, and answers 10 recovery codes", async () => {
    const user = await createUser(await signInAdmin());
    const totp = (code: string) => totpAt(code);
    const enrolment = await post("/auth/mfa/enroll", undefined, user.token);
    expect(enrolment.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.body.otpauthUri).toContain(`secret=${enrolment.body.secret}`);
    expect((await get("/auth/mfa", user.token)).body).toMatchObject({ enabled: false, pending: true });
    expectError(
      await post(
        "/auth/mfa/activate",
        { code: "000000" === totp(enrolment.body.secret) ? "111111" : "000000", password: PASSWORD },
        user.token,
      ),
      400,
      "validation_error",
    );
    const activated = await post("/auth/mfa/activate", { code: totp(enrolment.body.secret), password: PASSWORD }, user.token);
    expect(activated.body.recoveryCodes).toHaveLength(10);
    expect(new Set(activated.body.recoveryCodes).size).toBe(10);
    expect((await get("/auth/mfa", user.token)).body).toMatchObject({ enabled: true, pending: false, recoveryCodesRemaining: 10 });
    expectError(await post("/auth/mfa/enroll", undefined, user.token), 409, "conflict");
  });

  it("a stolen access token alone cannot turn MFA on: activation needs the password", async () => {
    const user = await createUser(await signInAdmin());
    const { secret } = (await post("/auth/mfa/enroll", undefined, user.token)).body;
    const wrong = await post("/auth/mfa/activate", { code: totpAt(secret), password: "not the password" }, user.token);
    expectError(wrong, 400, "validation_error");
    expectError(await post("/auth/mfa/activate", { code: totpAt(secret) }, user.token), 422, "VALIDATION_ERROR");
    expect((await get("/auth/mfa", user.token)).body).toMatchObject({ enabled: false, pending: true });
  });

  it("stores the secret encrypted and the recovery codes hashed", async () => {
    const { user, secret, recoveryCodes } = await userWithMfa();
    const factor = await env.DB.prepare("select secret_ciphertext from mfa_factors where user_id = ?")
      .bind(user.userId)
      .first<{ secret_ciphertext: string }>();
    expect(factor!.secret_ciphertext).toMatch(/^v1\./);
    expect(factor!.secret_ciphertext).not.toContain(secret);
    const codes = await env.DB.prepare("select code_hash from recovery_codes where user_id = ?")
      .bind(user.userId)
      .all<{ code_hash: string }>();
    expect(codes.results).toHaveLength(10);
    for (const row of codes.results) expect(recoveryCodes.some((code) => row.code_hash.includes(code))).toBe(false);
  });

  it("needs a signed-in user", async () => {
    expectError(await post("/auth/mfa/enroll", undefined), 401, "unauthorized");
  });

  it("turning MFA on ends every other session at once (access and refresh tokens), as a password change does; the caller's stays", async () => {
    const user = await createUser(await signInAdmin());
    const other = await signIn(user.email, PASSWORD);
    // A read first: the other session is remembered live in this isolate's cache, which must be forgotten.
    expect((await get("/users/me", other.token)).status).toBe(200);
    const { secret } = (await post("/auth/mfa/enroll", undefined, user.token)).body;
    const activated = await post("/auth/mfa/activate", { code: totpAt(secret), password: PASSWORD }, user.token);
    expect(activated.status, activated.text).toBe(200);
    expectError(await get("/users/me", other.token), 401, "unauthorized");
    expectError(await patch("/users/me", { name: "still here?" }, other.token), 401, "unauthorized");
    expectError(await post("/auth/refresh", { refreshToken: other.refreshToken }), 401, "unauthorized");
    expect((await get("/users/me", user.token)).body.name).toBe("Test User");
    const refreshed = await post("/auth/refresh", { refreshToken: user.refreshToken });
    expect(refreshed.status, refreshed.text).toBe(200);
    const ended = await env.DB.prepare("select count(*) as n from sessions where user_id = ? and revoked_reason = 'mfa_enabled'")
      .bind(user.userId)
      .first<{ n: number }>();
    expect(ended!.n).toBe(1);
  });
});

describe("sign-in with MFA", { timeout: 30_000 }, () => {
  it("login answers a challenge, not tokens; verify with a code answers the token pair", async () => {
    const { user, secret, step } = await userWithMfa();
    const totp = (code: string, offset = 0) => totpAt(code, offset, step);
    const mfaToken = await challenge(user);
    expectError(await get("/users/me", mfaToken), 401, "unauthorized"); // not a bearer token
    const verified = await from(freshAddress()).post("/auth/mfa/verify", { mfaToken, code: totp(secret, 1) });
    expect(verified.status, verified.text).toBe(200);
    expect((await get("/users/me", verified.body.accessToken)).body.id).toBe(user.userId);
    // The challenge is spent.
    expectError(await from(freshAddress()).post("/auth/mfa/verify", { mfaToken, code: totp(secret, 1) }), 401, "unauthorized");
  });

  it("never accepts a code twice, nor one older than the last accepted", async () => {
    const { user, secret, step } = await userWithMfa();
    const totp = (code: string, offset = 0) => totpAt(code, offset, step);
    expect((await from(freshAddress()).post("/auth/mfa/verify", { mfaToken: await challenge(user), code: totp(secret, 1) })).status).toBe(
      200,
    );
    for (const offset of [1, 0, -1]) {
      const replay = await from(freshAddress()).post("/auth/mfa/verify", { mfaToken: await challenge(user), code: totp(secret, offset) });
      expectError(replay, 401, "unauthorized");
    }
  });

  it("recovery codes work once each", async () => {
    const { user, recoveryCodes } = await userWithMfa();
    const code = recoveryCodes[0]!;
    expect(
      (await from(freshAddress()).post("/auth/mfa/verify", { mfaToken: await challenge(user), code: code.toUpperCase() })).status,
    ).toBe(200);
    expectError(await from(freshAddress()).post("/auth/mfa/verify", { mfaToken: await challenge(user), code }), 401, "unauthorized");
    expect((await from(freshAddress()).post("/auth/mfa/verify", { mfaToken: await challenge(user), code: recoveryCodes[1]! })).status).toBe(
      200,
    );
  });

  it("a challenge allows 5 tries; then even the right code fails and the account is throttled", async () => {
    const { user, secret, step } = await userWithMfa();
    const totp = (code: string, offset = 0) => totpAt(code, offset, step);
    const mfaToken = await challenge(user);
    const wrong = totp(secret, 1) === "123456" ? "654321" : "123456";
    for (let i = 4; i >= 0; i--) {
      const response = await from(freshAddress()).post("/auth/mfa/verify", { mfaToken, code: wrong });
      expectError(response, 401, "unauthorized");
    }
    expectError(await from(freshAddress()).post("/auth/mfa/verify", { mfaToken, code: totp(secret, 1) }), 401, "unauthorized");
    // Five failures for the account: a new challenge is throttled too (per account, any address).
    expectRetryAfter(await from(freshAddress()).post("/auth/mfa/verify", { mfaToken: await challenge(user), code: totp(secret, 1) }), 900);
  });

  it("a challenge of an account disabled after the password step answers a right and a wrong code alike, and spends neither", async () => {
    const { user, secret, step } = await userWithMfa();
    const totp = (code: string, offset = 0) => totpAt(code, offset, step);
    const mfaToken = await challenge(user);
    const admin = await signInAdmin();
    expect((await call("PATCH", `/users/${user.userId}`, { token: admin.token, body: { disabled: true } })).status).toBe(200);
    const sessionsBefore = await sessionCount(user.userId);
    const right = await from(freshAddress()).post("/auth/mfa/verify", { mfaToken, code: totp(secret, 1) });
    const wrong = await from(freshAddress()).post("/auth/mfa/verify", {
      mfaToken,
      code: totp(secret, 1) === "123456" ? "654321" : "123456",
    });
    expectError(right, 401, "unauthorized");
    expect({ status: right.status, body: right.body }).toEqual({ status: wrong.status, body: wrong.body });
    expect(await sessionCount(user.userId)).toBe(sessionsBefore);
    // Nothing was spent: no try of the challenge, and (once enabled again) the same code still signs in.
    const row = await env.DB.prepare("select attempts, used_at from mfa_challenges where user_id = ?").bind(user.userId).first();
    expect(row).toEqual({ attempts: 0, used_at: null });
    expect((await call("PATCH", `/users/${user.userId}`, { token: admin.token, body: { disabled: false } })).status).toBe(200);
    expect((await from(freshAddress()).post("/auth/mfa/verify", { mfaToken, code: totp(secret, 1) })).status).toBe(200);
  });

  it("refuses forged and expired MFA tokens", async () => {
    const { user, secret, step } = await userWithMfa();
    const totp = (code: string, offset = 0) => totpAt(code, offset, step);
    expectError(
      await from(freshAddress()).post("/auth/mfa/verify", { mfaToken: "mfa_forged", code: totp(secret, 1) }),
      401,
      "unauthorized",
    );
    const mfaToken = await challenge(user);
    await env.DB.prepare("update mfa_challenges set expires_at = '2000-01-01T00:00:00.000Z' where user_id = ?").bind(user.userId).run();
    expectError(await from(freshAddress()).post("/auth/mfa/verify", { mfaToken, code: totp(secret, 1) }), 401, "unauthorized");
  });

  it("throttles verify per client address across challenges", async () => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++)
      expectError(await from(address).post("/auth/mfa/verify", { mfaToken: `mfa_guess${i}`, code: "123456" }), 401, "unauthorized");
    expectRetryAfter(await from(address).post("/auth/mfa/verify", { mfaToken: "mfa_guess", code: "123456" }), 900);
  });
});

describe("DELETE /auth/mfa", { timeout: 30_000 }, () => {
  it("needs a fresh code: a replayed one is refused, a new one turns MFA off", async () => {
    const { user, secret, step } = await userWithMfa();
    const totp = (code: string, offset = 0) => totpAt(code, offset, step);
    const replayed = await call("DELETE", "/auth/mfa", { token: user.token, body: { code: totp(secret) } });
    expectError(replayed, 400, "validation_error");
    const done = await call("DELETE", "/auth/mfa", { token: user.token, body: { code: totp(secret, 1) } });
    expect(done.status, done.text).toBe(204);
    const login = await from(freshAddress()).post("/auth/login", { email: user.email, password: PASSWORD });
    expect(login.body.accessToken).toBeTruthy();
    expectError(await call("DELETE", "/auth/mfa", { token: user.token, body: { code: totp(secret, 1) } }), 400, "validation_error");
  });
});
