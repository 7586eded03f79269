import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createGroup, createUser, expectStatus, signIn, signInAdmin, type Session } from "../helpers/factories";
import { freshAddress, mailedToken, uniqueEmail } from "../identity/identity-helpers";
import { ConsoleAgent } from "./support/console-agent";

const PASSWORD = "a long enough password";

async function invite(owner: Session, groupId: string, email: string, role: "viewer" | "member" = "viewer") {
  expectStatus(
    await api(owner.token).POST("/api/v1/groups/{id}/invites", { params: { path: { id: groupId } }, body: { email, role } }),
    201,
  );
  return mailedToken(email, "inv");
}

/** A visitor without a session, from its own address (the API throttles invites and resets per address). */
async function visitor(path: string) {
  const agent = new ConsoleAgent();
  const address = { "CF-Connecting-IP": freshAddress() };
  const page = await agent.get(path, address);
  return { agent, page, post: (to: string, fields: Record<string, string>) => agent.post(to, fields, address) };
}

describe("console invite acceptance", { timeout: 30_000 }, () => {
  it("creates the invited account with a password and signs it in, a member with the invited role", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    const email = uniqueEmail("console-invitee");
    const token = await invite(owner, group.id, email);

    // The mail's link (FRONTEND_URL + /accept-invite) leads to the page.
    const link = await new ConsoleAgent().get(`/accept-invite?token=${token}`);
    expect(link.location).toBe(`/invites/accept?token=${token}`);

    const { agent, page, post } = await visitor(`/invites/accept?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('for="invite-password"');
    const accepted = await post("/invites/accept", { token, password: PASSWORD, name: "Console Person" });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe(`/groups/${group.id}`);
    expect(agent.cookies.get("__Host-wgo_at")).toBeTruthy();

    const groupPage = await agent.get(`/groups/${group.id}`);
    expect(groupPage.status).toBe(200);
    expect(groupPage.text).toContain("<strong>viewer</strong>");
    const me = expectStatus(await api(agent.cookies.get("__Host-wgo_at")).GET("/api/v1/users/me"), 200);
    expect(me).toMatchObject({ email, name: "Console Person" });
  });

  it("lets an existing account join with its password, and then holds its session", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const invitee = await createUser(admin);
    const group = await createGroup(owner);
    const token = await invite(owner, group.id, invitee.email, "member");

    const wrong = await visitor(`/invites/accept?token=${token}`);
    const refused = await wrong.post("/invites/accept", { token, password: "not the password at all" });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('role="alert"');
    expect(wrong.agent.cookies.has("__Host-wgo_at")).toBe(false);

    const { agent, post } = await visitor(`/invites/accept?token=${token}`);
    const accepted = await post("/invites/accept", { token, password: PASSWORD });
    expect(accepted.location).toBe(`/groups/${group.id}`);
    const me = expectStatus(await api(agent.cookies.get("__Host-wgo_at")).GET("/api/v1/users/me"), 200);
    expect(me.id).toBe(invitee.userId);
    const groups = expectStatus(await api(invitee.token).GET("/api/v1/groups"), 200);
    expect(groups.items.find((item) => item.id === group.id)?.role).toBe("member");
  });

  it("accepts as the signed-in account without asking for a password", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const invitee = await createUser(admin);
    const group = await createGroup(owner);
    const token = await invite(owner, group.id, invitee.email);

    const { agent, post } = await visitor("/sign-in");
    expect((await post("/sign-in", { email: invitee.email, password: PASSWORD })).status).toBe(303);
    const page = await agent.get(`/invites/accept?token=${token}`);
    expect(page.text).toContain(`You are signed in as <strong>${invitee.email}</strong>`);
    expect(page.text).not.toContain('name="password"');
    expect((await post("/invites/accept", { token })).location).toBe(`/groups/${group.id}`);
    const groups = expectStatus(await api(invitee.token).GET("/api/v1/groups"), 200);
    expect(groups.items.some((item) => item.id === group.id)).toBe(true);
  });
});

describe("console password reset", { timeout: 30_000 }, () => {
  it("mails a link, sets the new password from it, and the old one stops working", async () => {
    const user = await createUser(await signInAdmin());
    const { page, post } = await visitor("/password-reset");
    expect(page.status).toBe(200);
    expect(page.text).toContain('for="reset-email"');

    const requested = await post("/password-reset", { email: user.email });
    expect(requested.status).toBe(303);
    expect(requested.location).toBe("/password-reset?sent=1");
    const token = await mailedToken(user.email, "prt");

    expect((await new ConsoleAgent().get(`/reset-password?token=${token}`)).location).toBe(`/password-reset/confirm?token=${token}`);
    const form = await visitor(`/password-reset/confirm?token=${token}`);
    expect(form.page.text).toContain(`value="${token}"`);
    const mismatch = await form.post("/password-reset/confirm", {
      token,
      newPassword: "a brand new password",
      repeatPassword: "another one here",
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.text).toContain("The two passwords differ.");

    const confirmed = await form.post("/password-reset/confirm", {
      token,
      newPassword: "a brand new password",
      repeatPassword: "a brand new password",
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe("/password-reset/done");
    expect((await api().POST("/api/v1/auth/login", { body: { email: user.email, password: PASSWORD } })).response.status).toBe(401);
    await signIn(user.email, "a brand new password");

    // Used once: the same link is refused with the API's words.
    const again = await form.post("/password-reset/confirm", {
      token,
      newPassword: "yet another password",
      repeatPassword: "yet another password",
    });
    expect(again.status).toBe(400);
    expect(again.text).toContain('role="alert"');
  });

  it("refuses a reset POST that did not come from the console's own form", async () => {
    const { agent } = await visitor("/password-reset");
    const forged = await agent.post("/password-reset", { email: "someone@example.com", _csrf: "" });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("CSRF");
  });
});
