import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../helpers/api";
import { createUser, signIn, signInAdmin } from "../helpers/factories";
import { expectError, expectRetryAfter, freshAddress, from, mailCount, mailedToken, uniqueEmail } from "./identity-helpers";

const PASSWORD = "a long enough password";
const NEW_PASSWORD = "a brand new password";

describe("password reset", { timeout: 30_000 }, () => {
  it("mails a single-use token; confirming sets the password and ends every session", async () => {
    const user = await createUser(await signInAdmin());
    const other = await signIn(user.email, PASSWORD);
    const client = from(freshAddress());
    const requested = await client.post("/auth/password-reset/request", { email: user.email.toUpperCase() });
    expect(requested.status).toBe(202);
    const token = await mailedToken(user.email, "prt");

    expect((await client.post("/auth/password-reset/confirm", { token, newPassword: NEW_PASSWORD })).status).toBe(204);
    for (const session of [user, other]) {
      expectError(await get("/users/me", session.token), 401, "unauthorized");
      expectError(await post("/auth/refresh", { refreshToken: session.refreshToken }), 401, "unauthorized");
    }
    expectError(await client.post("/auth/login", { email: user.email, password: PASSWORD }), 401, "unauthorized");
    expect((await client.post("/auth/login", { email: user.email, password: NEW_PASSWORD })).status).toBe(200);
    // Used once: never again.
    expectError(await client.post("/auth/password-reset/confirm", { token, newPassword: "yet another password" }), 400, "validation_error");
  });

  it("answers an unknown address exactly like a known one, and mails nothing", async () => {
    const user = await createUser(await signInAdmin());
    const unknown = uniqueEmail("nobody");
    const known = await from(freshAddress()).post("/auth/password-reset/request", { email: user.email });
    const missing = await from(freshAddress()).post("/auth/password-reset/request", { email: unknown });
    expect(missing.status).toBe(known.status);
    expect(missing.body).toEqual(known.body);
    expect(await mailCount(unknown)).toBe(0);
  });

  it("refuses forged, expired and superseded tokens", async () => {
    const user = await createUser(await signInAdmin());
    const client = from(freshAddress());
    await client.post("/auth/password-reset/request", { email: user.email });
    const first = await mailedToken(user.email, "prt");
    await client.post("/auth/password-reset/request", { email: user.email });
    const second = await mailedToken(user.email, "prt");
    expect(second).not.toBe(first);

    expectError(await client.post("/auth/password-reset/confirm", { token: first, newPassword: NEW_PASSWORD }), 400, "validation_error");
    expectError(
      await client.post("/auth/password-reset/confirm", { token: `${second.slice(0, -2)}xx`, newPassword: NEW_PASSWORD }),
      400,
      "validation_error",
    );
    await env.DB.prepare("update password_resets set expires_at = '2000-01-01T00:00:00.000Z' where user_id = ?").bind(user.userId).run();
    expectError(await client.post("/auth/password-reset/confirm", { token: second, newPassword: NEW_PASSWORD }), 400, "validation_error");
    expect((await client.post("/auth/login", { email: user.email, password: PASSWORD })).status).toBe(200);
  });

  it("validates the new password and the body", async () => {
    const client = from(freshAddress());
    expectError(await client.post("/auth/password-reset/confirm", { token: "prt_x", newPassword: "short" }), 422, "VALIDATION_ERROR");
    expectError(await client.post("/auth/password-reset/request", { email: "not an email" }), 422, "VALIDATION_ERROR");
    expectError(await client.post("/auth/password-reset/request", { email: uniqueEmail(), extra: 1 }), 422, "VALIDATION_ERROR");
  });

  it("mails nothing for a disabled account", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    expect((await patch(`/users/${user.userId}`, { disabled: true }, admin.token)).status).toBe(200);
    expect((await from(freshAddress()).post("/auth/password-reset/request", { email: user.email })).status).toBe(202);
    expect(await mailCount(user.email)).toBe(0);
  });

  it("one address asking for one account is throttled after 3 (429 + Retry-After), whether or not an account uses it", async () => {
    const user = await createUser(await signInAdmin());
    const answers = [];
    for (const email of [user.email, uniqueEmail("ghost")]) {
      const client = from(freshAddress());
      for (let i = 0; i < 3; i++) expect((await client.post("/auth/password-reset/request", { email })).status).toBe(202);
      const refused = await client.post("/auth/password-reset/request", { email });
      expectRetryAfter(refused, 3600);
      answers.push(refused.body);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(await mailCount(user.email)).toBe(3);
  });

  it("requests from other addresses do not lock the owner out of a reset", async () => {
    const user = await createUser(await signInAdmin());
    for (let n = 0; n < 3; n++) {
      const stranger = from(freshAddress());
      for (let i = 0; i < 3; i++) expect((await stranger.post("/auth/password-reset/request", { email: user.email })).status).toBe(202);
      expectRetryAfter(await stranger.post("/auth/password-reset/request", { email: user.email }), 3600);
    }
    expect((await from(freshAddress()).post("/auth/password-reset/request", { email: user.email })).status).toBe(202);
    expect(await mailCount(user.email)).toBe(10);
  });

  it("an account gets at most 20 reset mails an hour, from any number of addresses", async () => {
    const user = await createUser(await signInAdmin());
    for (let n = 0; n < 10; n++) {
      const stranger = from(freshAddress());
      for (let i = 0; i < 2; i++) expect((await stranger.post("/auth/password-reset/request", { email: user.email })).status).toBe(202);
    }
    expectRetryAfter(await from(freshAddress()).post("/auth/password-reset/request", { email: user.email }), 3600);
    expect(await mailCount(user.email)).toBe(20);
  });

  it("throttles per client address across accounts", async () => {
    const client = from(freshAddress());
    for (let i = 0; i < 10; i++) expect((await client.post("/auth/password-reset/request", { email: uniqueEmail() })).status).toBe(202);
    expectRetryAfter(await client.post("/auth/password-reset/request", { email: uniqueEmail() }), 3600);
    expect((await from(freshAddress()).post("/auth/password-reset/request", { email: uniqueEmail() })).status).toBe(202);
  });
});
