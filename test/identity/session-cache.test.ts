import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { forgetLiveSessions } from "../../src/services/auth/session-cache";
import { call, get, post } from "../helpers/api";
import { createUser, signInAdmin } from "../helpers/factories";
import { countingD1 } from "../perf/counting-d1";
import { expectError } from "../helpers/expect-error";

const app = createApp();

async function countedGet(path: string, token: string) {
  const { db, counter } = countingD1(env.DB);
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(`http://api.test/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } }),
    { ...env, DB: db },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: response.status, roundTrips: counter.roundTrips };
}

describe("recent session checks (reads only)", () => {
  it("a read right after another by the same live session skips the session read", async () => {
    const user = await createUser(await signInAdmin());
    forgetLiveSessions();
    const first = await countedGet("/users/me", user.token);
    const second = await countedGet("/users/me", user.token);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.roundTrips).toBe(first.roundTrips - 1);
  });

  it("logout, a password change and disabling end reads at once in this isolate", async () => {
    const admin = await signInAdmin();
    const loggedOut = await createUser(admin);
    expect((await get("/users/me", loggedOut.token)).status).toBe(200);
    expect((await post("/auth/logout", {}, loggedOut.token)).status).toBe(204);
    expectError(await get("/users/me", loggedOut.token), 401, "unauthorized");

    const disabled = await createUser(admin);
    expect((await get("/users/me", disabled.token)).status).toBe(200);
    expect((await call("PATCH", `/users/${disabled.userId}`, { token: admin.token, body: { disabled: true } })).status).toBe(200);
    expectError(await get("/users/me", disabled.token), 401, "unauthorized");
  });

  it("a session ended elsewhere (another isolate) may still read for a moment, but never write", async () => {
    const user = await createUser(await signInAdmin());
    expect((await get("/users/me", user.token)).status).toBe(200);
    await env.DB.prepare("update sessions set revoked_at = ? where user_id = ?").bind(new Date().toISOString(), user.userId).run();
    expect((await get("/users/me", user.token)).status).toBe(200);
    expectError(await post("/groups", { name: "after-revocation" }, user.token), 401, "unauthorized");
    forgetLiveSessions(); // what LIVE_FOR_MS of time does
    expectError(await get("/users/me", user.token), 401, "unauthorized");
  });
});
