// Who may scrape GET /metrics, and the metrics token's life: issued once, rotated by issuing again,
// revoked at once, audited, stored only as a hash.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, del, get, post } from "../helpers/api";
import { expectError } from "../helpers/expect-error";
import { createUser, signInAdmin } from "../helpers/factories";
import { scrape } from "./support";

const scrapeWith = (token?: string) => call("GET", "/metrics", { token });

const auditRows = async (method: string) =>
  (
    await env.DB.prepare("SELECT resource_id, actor_id, status FROM audit_events WHERE route = '/admin/metrics-token' AND method = ?")
      .bind(method)
      .all<{ resource_id: string; actor_id: string; status: number }>()
  ).results;

describe("the metrics token", () => {
  it("is shown once, scrapes, is rotated by issuing again (the old one is 401 at once), revoked, and audited", async () => {
    const admin = await signInAdmin();
    const first = await post("/admin/metrics-token", undefined, admin.token);
    expect(first.status, first.text).toBe(201);
    expect(first.body.token).toMatch(/^mtk_[A-Za-z0-9_-]{43}$/);
    await scrape(first.body.token);
    // Only the hash is stored; reads show the id, never the secret.
    const stored = await env.DB.prepare("SELECT token_hash FROM metrics_tokens WHERE id = ?")
      .bind(first.body.id)
      .first<{ token_hash: string }>();
    expect(stored!.token_hash).not.toContain(first.body.token.slice(4));
    const shown = await get("/admin/metrics-token", admin.token);
    expect(shown.body).toEqual({ id: first.body.id, createdAt: first.body.createdAt, createdBy: admin.userId });
    expect(shown.text).not.toContain(first.body.token);

    const second = await post("/admin/metrics-token", undefined, admin.token);
    expect(second.status).toBe(201);
    expectError(await scrapeWith(first.body.token), 401, "unauthorized");
    await scrape(second.body.token);

    expect((await del("/admin/metrics-token", admin.token)).status).toBe(204);
    expectError(await scrapeWith(second.body.token), 401, "unauthorized");
    expectError(await get("/admin/metrics-token", admin.token), 404, "not_found");
    expectError(await del("/admin/metrics-token", admin.token), 404, "not_found");

    const issued = (await auditRows("POST")).map((row) => row.resource_id);
    expect(issued).toEqual(expect.arrayContaining([first.body.id, second.body.id]));
    expect(await auditRows("DELETE")).toContainEqual({ resource_id: second.body.id, actor_id: admin.userId, status: 204 });
  });

  it("refuses: no token or a wrong one 401 (error envelope); a signed-in non-admin 403, for scraping and managing the token", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    expectError(await scrapeWith(), 401, "unauthorized");
    const wrong = await scrapeWith("mtk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    expectError(wrong, 401, "unauthorized");
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    expectError(await scrapeWith("not-a-token"), 401, "unauthorized");
    expectError(await scrapeWith(user.token), 403, "forbidden");
    expectError(await post("/admin/metrics-token", undefined, user.token), 403, "forbidden");
    expectError(await get("/admin/metrics-token", user.token), 403, "forbidden");
    expectError(await del("/admin/metrics-token", user.token), 403, "forbidden");
    expectError(await post("/admin/metrics-token", undefined), 401, "unauthorized");
    // A metrics token opens GET /metrics only: it is no user token.
    const issued = await post("/admin/metrics-token", undefined, admin.token);
    expectError(await get("/admin/metrics-token", issued.body.token), 401, "unauthorized");
    expectError(await get("/networks", issued.body.token), 401, "unauthorized");
  });
});
