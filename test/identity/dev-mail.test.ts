import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { get } from "../helpers/api";
import { expectError, freshAddress, from, uniqueEmail } from "./identity-helpers";

/** The real app and bindings, with one variable changed (the test project sets MAIL_TRANSPORT=dev). */
async function fetchWith(vars: Record<string, string | undefined>, path: string) {
  const context = createExecutionContext();
  const response = await createApp().fetch(new Request(`http://api.test/api/v1${path}`), { ...env, ...vars }, context);
  await waitOnExecutionContext(context);
  return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
}

describe("GET /dev/mail", () => {
  it("exists only with MAIL_TRANSPORT=dev: otherwise it answers like an unknown route, before validating", async () => {
    for (const value of [undefined, "none", "http"]) {
      const response = await fetchWith({ MAIL_TRANSPORT: value }, "/dev/mail?to=a@example.com");
      expect(response.status).toBe(404);
      expect(response.body.error).toEqual({ code: "not_found", message: "No route for GET /api/v1/dev/mail" });
      expectError(await fetchWith({ MAIL_TRANSPORT: value }, "/dev/mail"), 404, "not_found");
    }
  });

  it("in development lists what was mailed to an address, newest first", async () => {
    const email = uniqueEmail();
    expectError(await get("/dev/mail"), 422, "VALIDATION_ERROR");
    expect((await get(`/dev/mail?to=${email}`)).body.items).toEqual([]);
    const admin = await from(freshAddress()).post("/auth/login", { email: "admin@test.local", password: "correct horse battery staple" });
    const group = await from(freshAddress()).post("/groups", { name: "mail test" }, admin.body.accessToken);
    await from(freshAddress()).post(`/groups/${group.body.id}/invites`, { email, role: "viewer" }, admin.body.accessToken);
    const mail = await get(`/dev/mail?to=${email.toUpperCase()}`);
    expect(mail.body.items).toEqual([expect.objectContaining({ to: email, subject: "You are invited to a group" })]);
    expect(mail.body.items[0].text).toMatch(/inv_[A-Za-z0-9_-]{43}/);
  });
});
