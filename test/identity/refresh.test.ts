import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { createUser, signInAdmin } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";

describe("POST /auth/refresh", () => {
  it("rotates: the new pair works and the old refresh token is consumed", async () => {
    const session = await signInAdmin();
    const first = await post("/auth/refresh", { refreshToken: session.refreshToken });
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(session.refreshToken);
    expect((await get("/users/me", first.body.accessToken)).status).toBe(200);
    const second = await post("/auth/refresh", { refreshToken: first.body.refreshToken });
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.body.refreshToken);
  });

  it("a retry inside the grace window returns the same successor instead of revoking", async () => {
    const session = await signInAdmin();
    const [a, b] = await Promise.all([
      post("/auth/refresh", { refreshToken: session.refreshToken }),
      post("/auth/refresh", { refreshToken: session.refreshToken }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refreshToken).toBe(b.body.refreshToken);
    expect((await post("/auth/refresh", { refreshToken: a.body.refreshToken })).status).toBe(200);
  });

  it("reuse of a rotated token after its successor was used revokes the whole family", async () => {
    const session = await signInAdmin();
    const first = await post("/auth/refresh", { refreshToken: session.refreshToken });
    const second = await post("/auth/refresh", { refreshToken: first.body.refreshToken });
    expect(second.status).toBe(200);
    const replay = await post("/auth/refresh", { refreshToken: session.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe("unauthorized");
    // Every member of the family is dead now, including the newest pair.
    expectError(await post("/auth/refresh", { refreshToken: second.body.refreshToken }), 401, "unauthorized");
    expectError(await get("/users/me", second.body.accessToken), 401, "unauthorized");
  });

  it("reuse after the grace window revokes the family", async () => {
    const session = await signInAdmin();
    const first = await post("/auth/refresh", { refreshToken: session.refreshToken });
    // Age the consumed token past the 10 s grace window.
    await env.DB.prepare("update refresh_tokens set used_at = used_at - 60000 where used_at is not null").run();
    expectError(await post("/auth/refresh", { refreshToken: session.refreshToken }), 401, "unauthorized");
    expectError(await post("/auth/refresh", { refreshToken: first.body.refreshToken }), 401, "unauthorized");
  });

  it("an unknown, empty or missing refresh token is refused", async () => {
    expectError(await post("/auth/refresh", { refreshToken: "not-a-token" }), 401, "unauthorized");
    const empty = await post("/auth/refresh", { refreshToken: "" });
    expectError(empty, 422, "VALIDATION_ERROR");
    expect(empty.body.error.fields[0].path).toBe("refreshToken");
    expectError(await post("/auth/refresh", {}), 422, "VALIDATION_ERROR");
  });

  it("an expired refresh token is refused", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    await env.DB.prepare(
      "update refresh_tokens set expires_at = '2000-01-01T00:00:00.000Z' where session_id in (select id from sessions where user_id = ?)",
    )
      .bind(user.userId)
      .run();
    expectError(await post("/auth/refresh", { refreshToken: user.refreshToken }), 401, "unauthorized");
  });
});

describe("POST /auth/logout", () => {
  it("ends the session: the access token and the refresh token stop working, other sessions stay", async () => {
    const a = await signInAdmin();
    const b = await signInAdmin();
    const out = await call("POST", "/auth/logout", { token: a.token });
    expect(out.status).toBe(204);
    expectError(await get("/users/me", a.token), 401, "unauthorized");
    expectError(await post("/auth/refresh", { refreshToken: a.refreshToken }), 401, "unauthorized");
    expect((await get("/users/me", b.token)).status).toBe(200);
  });

  it("needs a bearer token", async () => {
    expectError(await call("POST", "/auth/logout"), 401, "unauthorized");
  });
});

describe("revocation on reads", () => {
  it("a read by an ended session answers 401 with nothing of the handler's answer", async () => {
    const session = await signInAdmin();
    const group = await post("/groups", { name: "secret-group" }, session.token);
    await call("POST", "/auth/logout", { token: session.token });
    const read = await get(`/groups/${group.body.id}`, session.token);
    expectError(read, 401, "unauthorized");
    expect(read.text).not.toContain("secret-group");
    expect(read.headers.get("etag")).toBeNull();
  });
});
