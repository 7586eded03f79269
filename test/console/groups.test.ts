import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { addMember, createGroup, createUser, expectStatus, signInAdmin } from "../helpers/factories";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";
import { inHtml, messageOf } from "./support/api-message";

const PASSWORD = "a long enough password";

const membersOf = async (token: string, groupId: string) =>
  expectStatus(await api(token).GET("/api/v1/groups/{id}/members", { params: { path: { id: groupId }, query: { limit: 200 } } }), 200)
    .items;

describe("console groups", { timeout: 30_000 }, () => {
  it("lists the user's groups and shows a group's members with their roles", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    const viewer = await createUser(admin);
    await addMember(group.id, viewer, "viewer");

    const agent = await signedInAgent(owner.email, PASSWORD);
    const list = await agent.get("/groups");
    expect(list.status).toBe(200);
    expect(list.text).toContain(`href="/groups/${group.id}"`);
    expect(list.text).toContain(group.name);

    const page = await agent.get(`/groups/${group.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(viewer.email);
    expect(page.text).toContain(owner.email);
    expect(page.text).toContain("Add a member");
    expect(page.text).toContain("Invite by email");
    // An owner may grant owner; the picker offers it.
    expect(page.text).toContain('<option value="owner"');
  });

  it("searches a group's members and invites by email, name or role (issue 29)", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    const viewer = await createUser(admin);
    await addMember(group.id, viewer, "viewer");
    expectStatus(
      await api(owner.token).POST("/api/v1/groups/{id}/invites", {
        params: { path: { id: group.id } },
        body: { email: "searched-invitee@example.com", role: "member" },
      }),
      201,
    );
    const agent = await signedInAgent(owner.email, PASSWORD);
    const byRole = await agent.get(`/groups/${group.id}?q=viewer`);
    expect(byRole.text).toContain(viewer.email);
    expect(byRole.text).not.toContain(`<td>${owner.email}</td>`);
    expect(byRole.text).toContain("No pending invite matches “viewer”.");
    const byEmail = await agent.get(`/groups/${group.id}?q=SEARCHED-invitee`);
    expect(byEmail.text).toContain("searched-invitee@example.com");
    expect(byEmail.text).toContain("No member matches “SEARCHED-invitee”.");
  });

  it("says what to do when the user has no group yet", async () => {
    const user = await createUser(await signInAdmin());
    const page = await (await signedInAgent(user.email, PASSWORD)).get("/groups");
    expect(page.status).toBe(200);
    expect(page.text).toContain("You are not in any group yet");
    expect(page.text).toContain("Create group");
  });

  it("creates a group the user then owns", async () => {
    const user = await createUser(await signInAdmin());
    const agent = await signedInAgent(user.email, PASSWORD);
    const name = `console-group-${Date.now().toString(36)}`;
    const created = await agent.post("/groups", { name });
    expect(created.status).toBe(303);
    const id = created.location?.split("/").pop() ?? "";
    const group = expectStatus(await api(user.token).GET("/api/v1/groups/{id}", { params: { path: { id } } }), 200);
    expect(group).toMatchObject({ name, role: "owner" });

    const refused = await agent.post("/groups", { name: "" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('role="alert"');
  });

  it("shows a viewer the members read-only and refuses the viewer's POST with the API's message", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    const viewer = await createUser(admin);
    const other = await createUser(admin);
    await addMember(group.id, viewer, "viewer");

    const agent = await signedInAgent(viewer.email, PASSWORD);
    const page = await agent.get(`/groups/${group.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(owner.email);
    for (const offer of ["Add a member", "Invite by email", "Change role", `/members/${owner.userId}/remove`]) {
      expect(page.text).not.toContain(offer);
    }
    expect(page.text).toContain("Leave group");

    const forged = await agent.post(`/groups/${group.id}/members`, { who: other.email, role: "admin" });
    const direct = await api(viewer.token).POST("/api/v1/groups/{id}/members", {
      params: { path: { id: group.id } },
      body: { email: other.email, role: "admin" },
    });
    expect(direct.response.status).toBe(403);
    expect(forged.status).toBe(403);
    expect(forged.text).toContain(inHtml(messageOf(direct)));
    expect((await membersOf(owner.token, group.id)).some((member) => member.userId === other.userId)).toBe(false);
    // The invite list is the API's to refuse too.
    expect((await agent.post(`/groups/${group.id}/invites`, { email: "someone@example.com", role: "viewer" })).status).toBe(403);
  });

  it("adds a member by email, changes the role and removes them, as the forms say", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const person = await createUser(admin);
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);

    const added = await agent.post(`/groups/${group.id}/members`, { who: person.email, role: "member" });
    expect(added.status).toBe(303);
    expect(added.location).toBe(`/groups/${group.id}`);
    expect((await membersOf(admin.token, group.id)).find((member) => member.userId === person.userId)?.role).toBe("member");

    expect((await agent.post(`/groups/${group.id}/members/${person.userId}/role`, { role: "viewer" })).status).toBe(303);
    expect((await membersOf(admin.token, group.id)).find((member) => member.userId === person.userId)?.role).toBe("viewer");

    expect((await agent.post(`/groups/${group.id}/members/${person.userId}/remove`, {})).status).toBe(303);
    expect((await membersOf(admin.token, group.id)).some((member) => member.userId === person.userId)).toBe(false);
  });

  it("sends an invite, lists it as pending, and revokes it", async () => {
    const owner = await createUser(await signInAdmin());
    const group = await createGroup(owner);
    const agent = await signedInAgent(owner.email, PASSWORD);
    const email = `invitee-${Date.now().toString(36)}@example.com`;

    const sent = await agent.post(`/groups/${group.id}/invites`, { email, role: "viewer" });
    expect(sent.status).toBe(303);
    const invites = expectStatus(await api(owner.token).GET("/api/v1/groups/{id}/invites", { params: { path: { id: group.id } } }), 200);
    const invite = invites.items.find((item) => item.email === email);
    expect(invite).toMatchObject({ role: "viewer", status: "pending" });
    const page = await agent.get(`/groups/${group.id}`);
    expect(page.text).toContain(email);
    expect(page.text).toContain(`Revoke invite for ${email}`);

    expect((await agent.post(`/groups/${group.id}/invites/${invite?.id}/revoke`, {})).status).toBe(303);
    const after = expectStatus(await api(owner.token).GET("/api/v1/groups/{id}/invites", { params: { path: { id: group.id } } }), 200);
    expect(after.items.find((item) => item.id === invite?.id)?.status).toBe("revoked");
    expect((await agent.get(`/groups/${group.id}`)).text).not.toContain(`Revoke invite for ${email}`);
  });

  it("answers a group the user cannot see with the API's refusal, not a stack", async () => {
    const admin = await signInAdmin();
    const stranger = await createUser(admin);
    const group = await createGroup(admin);
    const page = await (await signedInAgent(stranger.email, PASSWORD)).get(`/groups/${group.id}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('role="alert"');
    expect(page.text).not.toContain("at ");
  });
});
