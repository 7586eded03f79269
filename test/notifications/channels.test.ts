import { describe, expect, it } from "vitest";
import { call, del, get, patch, post } from "../helpers/api";
import { createUser, signInAdmin } from "../helpers/factories";
import { newHook } from "./support/receiver";
import { expectError } from "../helpers/expect-error";

const webhook = (target: string, events = ["node.offline"]) => ({ type: "webhook", target, events });

describe("notification channels", () => {
  it("a webhook channel shows its signing secret once: on creation, never in reads", async () => {
    const user = await createUser(await signInAdmin());
    const created = await post(
      "/notifications/channels",
      webhook(newHook().url, ["node.offline", "node.offline", "config.drift"]),
      user.token,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: "webhook", events: ["node.offline", "config.drift"], enabled: true });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.body.secretRotatedAt).toBe(created.body.createdAt);
    const one = await get(`/notifications/channels/${created.body.id}`, user.token);
    const all = await get("/notifications/channels", user.token);
    const settings = await get("/notifications/settings", user.token);
    for (const text of [one.text, all.text, settings.text]) expect(text).not.toContain(created.body.secret);
    expect(one.body).not.toHaveProperty("secret");
    expect(all.body.items.map((item: { id: string }) => item.id)).toEqual([created.body.id]);
    expect(all.body.nextCursor).toBeNull();
  });

  it("rotating issues a new secret; the old one is gone", async () => {
    const user = await createUser(await signInAdmin());
    const created = await post("/notifications/channels", webhook(newHook().url), user.token);
    const rotated = await post(`/notifications/channels/${created.body.id}/rotate-secret`, undefined, user.token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const email = await post("/notifications/channels", { type: "email", events: ["node.offline"] }, user.token);
    expectError(await post(`/notifications/channels/${email.body.id}/rotate-secret`, undefined, user.token), 400, "validation_error");
  });

  it("email channels go to the account's own address (the default); another address is refused", async () => {
    const user = await createUser(await signInAdmin());
    const implicit = await post("/notifications/channels", { type: "email", events: ["gateway.down"] }, user.token);
    expect(implicit.status).toBe(201);
    expect(implicit.body).toMatchObject({ type: "email", target: user.email, secretRotatedAt: null });
    expect(implicit.body).not.toHaveProperty("secret");
    const explicit = await post(
      "/notifications/channels",
      { type: "email", target: user.email.toUpperCase(), events: ["gateway.down"] },
      user.token,
    );
    expect(explicit.status).toBe(201);
    const stranger = await post(
      "/notifications/channels",
      { type: "email", target: "someone@else.example", events: ["gateway.down"] },
      user.token,
    );
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.code).toBe("validation_error");
    const malformed = await post(
      "/notifications/channels",
      { type: "email", target: "not-an-address", events: ["gateway.down"] },
      user.token,
    );
    expectError(malformed, 422, "VALIDATION_ERROR");
  });

  it.each([
    ["http on a public host", "http://hooks.example.com/x"],
    ["10/8", "https://10.1.2.3/x"],
    ["172.16/12", "https://172.20.0.1/x"],
    ["192.168/16", "https://192.168.1.10/x"],
    ["link-local / metadata", "https://169.254.169.254/latest/meta-data"],
    ["decimal form of a private address", "https://3232235777/x"],
    ["IPv6 unique local", "https://[fd00::1]/x"],
    ["IPv6 link-local", "https://[fe80::1]/x"],
    ["IPv4-mapped private", "https://[::ffff:10.0.0.1]/x"],
    ["unspecified", "https://0.0.0.0/x"],
    ["metadata host name", "https://metadata.google.internal/computeMetadata"],
    ["single-label host", "https://metadata/x"],
    ["credentials in the URL", "https://user:pass@hooks.example.com/x"],
    ["another scheme", "ftp://hooks.example.com/x"],
  ])("refuses a webhook target: %s (400)", async (_label, target) => {
    const user = await createUser(await signInAdmin());
    const response = await post("/notifications/channels", webhook(target), user.token);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.error.code).toBe("validation_error");
  });

  it("schema failures are 422 with fields[]: unknown fields, unknown events, no events, a target that is not a URL", async () => {
    const user = await createUser(await signInAdmin());
    const cases: [unknown, string][] = [
      [{ ...webhook("https://hooks.example.com/"), secret: "mine" }, "secret"],
      [webhook("https://hooks.example.com/", ["node.exploded"]), "events.0"],
      [webhook("https://hooks.example.com/", []), "events"],
      [webhook("not a url"), "target"],
      [{ type: "sms", target: "+1555", events: ["node.offline"] }, "type"],
      [{ type: "webhook", events: ["node.offline"] }, "target"],
    ];
    for (const [body, path] of cases) {
      const response = await post("/notifications/channels", body, user.token);
      expectError(response, 422, "VALIDATION_ERROR");
      expect(response.body.error.fields.map((field: { path: string }) => field.path)).toContain(path);
    }
    expectError(
      await call("POST", "/notifications/channels", { token: user.token, raw: "{", headers: { "Content-Type": "application/json" } }),
      422,
      "VALIDATION_ERROR",
    );
  });

  it("PATCH changes target, events and enabled; the new target passes the same rules", async () => {
    const user = await createUser(await signInAdmin());
    const created = await post("/notifications/channels", webhook(newHook().url), user.token);
    const next = newHook().url;
    const updated = await patch(
      `/notifications/channels/${created.body.id}`,
      { target: next, events: ["gateway.up"], enabled: false },
      user.token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ target: next, events: ["gateway.up"], enabled: false });
    expectError(
      await patch(`/notifications/channels/${created.body.id}`, { target: "https://10.0.0.1/" }, user.token),
      400,
      "validation_error",
    );
    expectError(await patch(`/notifications/channels/${created.body.id}`, { type: "email" }, user.token), 422, "VALIDATION_ERROR");
  });

  it("another account's channel is not found: read, change, test, delete", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const other = await createUser(admin);
    const created = await post("/notifications/channels", webhook(newHook().url), owner.token);
    const path = `/notifications/channels/${created.body.id}`;
    expectError(await get(path, other.token), 404, "not_found");
    expectError(await patch(path, { enabled: false }, other.token), 404, "not_found");
    expectError(await post(`${path}/test`, undefined, other.token), 404, "not_found");
    expectError(await post(`${path}/rotate-secret`, undefined, other.token), 404, "not_found");
    expectError(await del(path, other.token), 404, "not_found");
    expect((await get("/notifications/channels", other.token)).body.items).toEqual([]);
    expect((await del(path, owner.token)).status).toBe(204);
    expectError(await get(path, owner.token), 404, "not_found");
  });

  it("at most 10 channels per account (409); sign-in required (401)", async () => {
    const user = await createUser(await signInAdmin());
    for (let i = 0; i < 10; i++) expect((await post("/notifications/channels", webhook(newHook().url), user.token)).status).toBe(201);
    const over = await post("/notifications/channels", webhook(newHook().url), user.token);
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe("conflict");
    expectError(await get("/notifications/channels"), 401, "unauthorized");
    expectError(await get("/notifications/settings"), 401, "unauthorized");
  });

  it("GET /notifications/settings: channels, the event catalogue, detection and retry settings", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    await post("/notifications/channels", { type: "email", events: ["node.offline"] }, user.token);
    // Detection follows the platform's offline threshold, which other files' admins change (one shared D1).
    const { offlineAfterSeconds } = (await get("/admin/settings", admin.token)).body.effective;
    const settings = await get("/notifications/settings", user.token);
    expect(settings.status).toBe(200);
    expect(settings.body.channels).toHaveLength(1);
    expect(settings.body.eventTypes.map((entry: { type: string }) => entry.type)).toEqual([
      "node.offline",
      "node.online",
      "gateway.down",
      "gateway.up",
      "config.drift",
      "policy.changed",
      "device.enrolled",
      "gateway.failover",
    ]);
    expect(settings.body.detection).toEqual({ offlineAfterSeconds, driftAfterSeconds: 300, intervalSeconds: 60 });
    expect(settings.body.retries).toEqual({ delaysSeconds: [30, 120, 600, 3600, 21600], maxAttempts: 6 });
  });
});
