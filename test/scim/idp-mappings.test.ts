// IdP groups onto our groups (DESIGN.md "Identity from the organisation's directory"): a mapping gives everyone
// in an IdP group a role in one of our groups, as a membership whose source is idp; the highest mapped role wins;
// the directory never touches a membership a person added or changed by hand; leaving the last mapped group
// (with none given by hand) signs the person out everywhere. Platform admins make and remove mappings.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, del, get, patch, post } from "../helpers/api";
import { addMember, createGroup, createUser, signInAdmin, unique, type Session } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";
import { GROUP, oktaUser, scimClient, type ScimClient } from "./scim-helpers";

type Member = { userId: string; role: string; source: string };
const memberOf = async (admin: Session, groupId: string, userId: string) =>
  ((await get(`/groups/${groupId}/members?limit=200`, admin.token)).body.items as Member[]).find((member) => member.userId === userId);

async function map(admin: Session, idpGroup: string, groupId: string, role: string) {
  const made = await post("/admin/idp-group-mappings", { idpGroup, groupId, role }, admin.token);
  expect(made.status, made.text).toBe(201);
  return made.body.id as string;
}

const pushGroup = async (idp: ScimClient, displayName: string, members: string[], externalId?: string) => {
  const pushed = await idp.post("/Groups", { schemas: [GROUP], displayName, externalId, members: members.map((value) => ({ value })) });
  expect(pushed.status, pushed.text).toBe(201);
  return pushed.body.id as string;
};

describe("IdP group mappings", () => {
  it("the highest mapped role wins, and falls back when the higher group is left", async () => {
    const admin = await signInAdmin();
    const idp = await scimClient();
    const ours = await createGroup(admin);
    const person = (await idp.post("/Users", oktaUser(`${unique("hi")}@example.com`))).body.id as string;
    const staff = unique("staff");
    const leads = unique("leads");
    await map(admin, staff, ours.id, "member");
    await map(admin, leads, ours.id, "admin");
    await pushGroup(idp, staff, [person]);
    expect(await memberOf(admin, ours.id, person)).toMatchObject({ role: "member", source: "idp" });
    const leadsId = await pushGroup(idp, leads, [person]);
    expect(await memberOf(admin, ours.id, person)).toMatchObject({ role: "admin", source: "idp" });
    expect((await idp.patch(`/Groups/${leadsId}`, [{ op: "remove", path: "members", value: [{ value: person }] }])).status).toBe(204);
    expect(await memberOf(admin, ours.id, person)).toMatchObject({ role: "member", source: "idp" });
  });

  it("a mapping by externalId, made after the group was pushed, applies at once; removing it takes the membership away", async () => {
    const admin = await signInAdmin();
    const idp = await scimClient();
    const ours = await createGroup(admin);
    const person = (await idp.post("/Users", oktaUser(`${unique("ext")}@example.com`))).body.id as string;
    const externalId = crypto.randomUUID();
    await pushGroup(idp, unique("by-external-id"), [person], externalId);
    expect(await memberOf(admin, ours.id, person)).toBeUndefined();
    const mapping = await map(admin, externalId, ours.id, "viewer");
    expect(await memberOf(admin, ours.id, person)).toMatchObject({ role: "viewer", source: "idp" });
    const listed = (await get("/admin/idp-group-mappings?limit=200", admin.token)).body.items as { id: string }[];
    expect(listed.map((row) => row.id)).toContain(mapping);
    expect((await del(`/admin/idp-group-mappings/${mapping}`, admin.token)).status).toBe(204);
    expect(await memberOf(admin, ours.id, person)).toBeUndefined();
  });

  it("leaves a membership given by hand alone, and one whose role a person changed", async () => {
    const admin = await signInAdmin();
    const idp = await scimClient();
    const handGroup = await createGroup(admin);
    const takenOver = await createGroup(admin);
    const user = await createUser(admin);
    await addMember(handGroup.id, user, "viewer");
    const name = unique("eng");
    await map(admin, name, handGroup.id, "admin");
    await map(admin, name, takenOver.id, "member");
    const idpGroup = await pushGroup(idp, name, [user.userId]);
    expect(await memberOf(admin, handGroup.id, user.userId)).toMatchObject({ role: "viewer", source: "manual" });
    expect(await memberOf(admin, takenOver.id, user.userId)).toMatchObject({ role: "member", source: "idp" });
    // A person sets the role by hand: the membership is theirs now.
    const changed = await patch(`/groups/${takenOver.id}/members/${user.userId}`, { role: "admin" }, admin.token);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ role: "admin", source: "manual" });
    expect((await idp.patch(`/Groups/${idpGroup}`, [{ op: "remove", path: `members[value eq "${user.userId}"]` }])).status).toBe(204);
    expect(await memberOf(admin, handGroup.id, user.userId)).toMatchObject({ role: "viewer", source: "manual" });
    expect(await memberOf(admin, takenOver.id, user.userId)).toMatchObject({ role: "admin", source: "manual" });
    // They still hold memberships given by hand: leaving the directory's group does not sign them out.
    expect((await get("/users/me", user.token)).status).toBe(200);
  });

  it("leaving the last mapped group, with nothing given by hand, signs the person out everywhere; the changes are audited as the token", async () => {
    const admin = await signInAdmin();
    const idp = await scimClient("okta");
    const ours = await createGroup(admin);
    const user = await createUser(admin);
    const name = unique("only");
    await map(admin, name, ours.id, "member");
    const idpGroup = await pushGroup(idp, name, [user.userId]);
    expect((await get("/users/me", user.token)).status).toBe(200);
    expect((await idp.patch(`/Groups/${idpGroup}`, [{ op: "remove", path: `members[value eq "${user.userId}"]` }])).status).toBe(204);
    expectError(await get("/users/me", user.token), 401, "unauthorized");
    expectError(await call("POST", "/auth/refresh", { body: { refreshToken: user.refreshToken } }), 401, "unauthorized");
    const audit = await env.DB.prepare(
      "SELECT method, route, status, resource_id AS resource, actor_type AS type, actor_id AS actor FROM audit_events WHERE group_id = ? AND resource_id = ? ORDER BY created_at, id",
    )
      .bind(ours.id, user.userId)
      .all();
    // One row per membership the directory changed: the member added by the push, removed by the PATCH.
    expect(audit.results).toEqual([
      { method: "POST", route: "/scim/v2/Groups", status: 201, resource: user.userId, type: "scim", actor: `scim:${idp.name}` },
      { method: "PATCH", route: "/scim/v2/Groups/:id", status: 204, resource: user.userId, type: "scim", actor: `scim:${idp.name}` },
    ]);
  });

  it("only platform admins make, list and remove mappings; bad input is refused in the envelope", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const ours = await createGroup(admin);
    const body = { idpGroup: unique("g"), groupId: ours.id, role: "member" };
    expectError(await post("/admin/idp-group-mappings", body, user.token), 403, "forbidden");
    expectError(await get("/admin/idp-group-mappings", user.token), 403, "forbidden");
    expectError(await del("/admin/idp-group-mappings/idm_x", user.token), 403, "forbidden");
    expectError(await post("/admin/idp-group-mappings", body), 401, "unauthorized");
    expectError(await post("/admin/idp-group-mappings", { ...body, groupId: "grp_nobody" }, admin.token), 404, "not_found");
    expectError(await post("/admin/idp-group-mappings", { ...body, role: "god" }, admin.token), 422, "VALIDATION_ERROR", ["role"]);
    expectError(await post("/admin/idp-group-mappings", { ...body, idpGroup: "a\u202Eb" }, admin.token), 422, "VALIDATION_ERROR", [
      "idpGroup",
    ]);
    await map(admin, body.idpGroup, ours.id, "member");
    expectError(await post("/admin/idp-group-mappings", { ...body, role: "admin" }, admin.token), 409, "conflict");
    expectError(await del("/admin/idp-group-mappings/idm_nobody", admin.token), 404, "not_found");
  });
});
