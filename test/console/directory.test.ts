// The console's Directory page (issue 43): a platform admin makes a SCIM token (shown once, with the base URL to
// give the identity provider), revokes it, maps an IdP group onto a group and removes the mapping; the group's
// members table says which memberships the directory gave. Anyone else gets the API's 403.
import { describe, expect, it } from "vitest";
import { get } from "../helpers/api";
import { createGroup, createUser, signInAdmin, unique } from "../helpers/factories";
import { GROUP, scimClient } from "../scim/scim-helpers";
import { TEST_ADMIN } from "../test-secrets";
import { signedInAgent } from "./support/console-agent";

const PASSWORD = "a long enough password";

describe("console directory page", { timeout: 30_000 }, () => {
  it("makes a SCIM token shown once with the SCIM URL, lists and revokes it", async () => {
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const name = unique("okta");
    const made = await agent.post("/admin/directory/tokens", { name });
    expect(made.status, made.text).toBe(201);
    expect(made.text).toMatch(/<code id="scim-token">scim_[A-Za-z0-9_-]{43}<\/code>/);
    expect(made.text).toContain("/api/v1/scim/v2</code>");
    const token = (await get("/admin/scim-tokens?limit=200", (await signInAdmin()).token)).body.items.find(
      (row: { name: string }) => row.name === name,
    );
    const page = await agent.get("/admin/directory");
    expect(page.text).toContain(`Revoke SCIM token ${name}`);
    expect(page.text).toContain('href="/admin/directory" aria-current="page"');
    expect((await agent.post(`/admin/directory/tokens/${token.id}/revoke`, {})).status).toBe(303);
    expect((await agent.get("/admin/directory")).text).not.toContain(`Revoke SCIM token ${name}`);
    // A taken name is the API's refusal, shown on the page.
    const again = await agent.post("/admin/directory/tokens", { name });
    expect(again.status).toBe(409);
    expect(again.text).toContain('role="alert"');
  });

  it("maps an IdP group onto a group, the members table names the directory as the source, and removes the mapping", async () => {
    const admin = await signInAdmin();
    const agent = await signedInAgent(TEST_ADMIN.email, TEST_ADMIN.password);
    const group = await createGroup(admin, unique("mapped"));
    const idpGroup = unique("Engineering");
    expect((await agent.post("/admin/directory/mappings", { idpGroup, groupId: group.id, role: "member" })).status).toBe(303);
    const page = await agent.get("/admin/directory");
    expect(page.text).toContain(`<td>${idpGroup}</td><td>${group.name}</td><td>member</td>`);

    const person = await createUser(admin);
    const idp = await scimClient();
    expect((await idp.post("/Groups", { schemas: [GROUP], displayName: idpGroup, members: [{ value: person.userId }] })).status).toBe(201);
    const members = await agent.get(`/groups/${group.id}`);
    const row = members.text.split("<tr>").find((part) => part.includes(`<td>${person.email}</td>`)) ?? "";
    expect(row).toContain('<span title="Given by an IdP group mapping');
    expect(members.text.split("<tr>").filter((part) => part.includes("added here")).length).toBeGreaterThan(0);

    const mapping = (await get("/admin/idp-group-mappings?limit=200", admin.token)).body.items.find(
      (row: { idpGroup: string }) => row.idpGroup === idpGroup,
    );
    expect((await agent.post(`/admin/directory/mappings/${mapping.id}/remove`, {})).status).toBe(303);
    expect((await agent.get("/admin/directory")).text).not.toContain(`<td>${idpGroup}</td>`);
  });

  it("is the API's 403 for anyone but a platform admin", async () => {
    const user = await createUser(await signInAdmin());
    const agent = await signedInAgent(user.email, PASSWORD);
    expect((await agent.get("/admin/directory")).status).toBe(403);
    expect((await agent.post("/admin/directory/tokens", { name: unique("x") })).status).toBe(403);
  });
});
