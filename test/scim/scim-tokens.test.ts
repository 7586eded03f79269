// SCIM bearer tokens (issue 43; DESIGN.md "Identity from the organisation's directory"): platform admins make,
// list and revoke them; the token is shown once and stored only as a hash; it authenticates no route of the
// ordinary API. The SCIM routes themselves come next (docs/identity.md).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createUser, signInAdmin, unique } from "../helpers/factories";

describe("SCIM tokens", () => {
  it("a platform admin makes one (shown once, stored hashed), lists it, revokes it; the audit log names each step", async () => {
    const admin = await signInAdmin();
    const name = unique("okta");
    const made = await post("/admin/scim-tokens", { name }, admin.token);
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ name, status: "active", lastUsedAt: null, revokedAt: null });
    expect(made.body.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    const stored = await env.DB.prepare("SELECT token_hash AS hash FROM scim_tokens WHERE id = ?")
      .bind(made.body.id)
      .first<{ hash: string }>();
    expect(stored!.hash).not.toContain(made.body.token.slice(5));

    const listed = (await get("/admin/scim-tokens?limit=200", admin.token)).body.items as { id: string; token?: string }[];
    const mine = listed.find((token) => token.id === made.body.id);
    expect(mine).toMatchObject({ name, status: "active" });
    expect(mine!.token).toBeUndefined();

    const revoked = await post(`/admin/scim-tokens/${made.body.id}/revoke`, {}, admin.token);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.status).toBe("revoked");
    const again = await post(`/admin/scim-tokens/${made.body.id}/revoke`, {}, admin.token);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt); // the first revocation's time stays

    const audit = await env.DB.prepare("SELECT method, route, status FROM audit_events WHERE resource_id = ? ORDER BY created_at")
      .bind(made.body.id)
      .all<{ method: string; route: string; status: number }>();
    expect(audit.results.map((row) => `${row.method} ${row.route} ${row.status}`)).toEqual([
      "POST /admin/scim-tokens 201",
      "POST /admin/scim-tokens/:id/revoke 200",
      "POST /admin/scim-tokens/:id/revoke 200",
    ]);
  });

  it("a name is taken for good (409, also after a revocation); bad names are 422", async () => {
    const admin = await signInAdmin();
    const name = unique("entra");
    const first = await post("/admin/scim-tokens", { name }, admin.token);
    expect(first.status).toBe(201);
    expectError(await post("/admin/scim-tokens", { name }, admin.token), 409, "conflict");
    await post(`/admin/scim-tokens/${first.body.id}/revoke`, {}, admin.token);
    expectError(await post("/admin/scim-tokens", { name }, admin.token), 409, "conflict");
    expectError(await post("/admin/scim-tokens", { name: "" }, admin.token), 422, "VALIDATION_ERROR");
    expectError(await post("/admin/scim-tokens", { name: "a\u202Eb" }, admin.token), 422, "VALIDATION_ERROR");
    expectError(await post("/admin/scim-tokens", { name: "x", extra: 1 }, admin.token), 422, "VALIDATION_ERROR");
  });

  it("only platform admins reach them (403), nobody signed out (401); an unknown id is 404", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    expectError(await post("/admin/scim-tokens", { name: unique("x") }, user.token), 403, "forbidden");
    expectError(await get("/admin/scim-tokens", user.token), 403, "forbidden");
    expectError(await post("/admin/scim-tokens/sct_NOPE/revoke", {}, user.token), 403, "forbidden");
    expectError(await post("/admin/scim-tokens", { name: unique("x") }), 401, "unauthorized");
    expectError(await post("/admin/scim-tokens/sct_NOPE/revoke", {}, admin.token), 404, "not_found");
  });

  it("a SCIM token opens no route of the ordinary API (401)", async () => {
    const admin = await signInAdmin();
    const { token } = (await post("/admin/scim-tokens", { name: unique("any") }, admin.token)).body;
    for (const [method, path] of [
      ["GET", "/networks"],
      ["GET", "/users/me"],
      ["GET", "/admin/scim-tokens"],
      ["POST", "/groups"],
    ] as const) {
      expectError(await call(method, path, { token, body: method === "POST" ? { name: "g" } : undefined }), 401, "unauthorized");
    }
  });
});
