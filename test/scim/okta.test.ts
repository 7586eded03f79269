// Okta's SCIM 2.0 request sequence (Okta's "SCIM 2.0 protocol reference" and its test suite, Runscope/Okta CRUD
// spec): look a person up by userName, create them, read them back, update by PUT, push a group and its members
// (add, then remove with members[value eq "…"]), deactivate with PATCH replace active:false, and delete. Every
// answer is application/scim+json; every change is audited as scim:<token name>.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { createUser, enrolDevice, createGroup, createNetwork, signInAdmin, unique, addMember } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";
import { GROUP, USER, expectScimError, oktaUser, scimClient } from "./scim-helpers";

const peerIds = async (deviceId: string, token: string) =>
  (await call("POST", `/client/devices/${deviceId}/config`, { token })).body.config.peers.map((p: { nodeId: string }) => p.nodeId);

describe("Okta's provisioning sequence", () => {
  it("looks up, creates, reads, updates (PUT) and deletes a person", async () => {
    const okta = await scimClient("okta");
    const email = `${unique("ada")}@example.com`;
    const filter = encodeURIComponent(`userName eq "${email}"`);

    const none = await okta.get(`/Users?filter=${filter}&startIndex=1&count=100`);
    expect(none.status, none.text).toBe(200);
    expect(none.headers.get("content-type")).toMatch(/^application\/scim\+json/);
    expect(none.body).toEqual({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    const body = oktaUser(email);
    const created = await okta.post("/Users", body);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      schemas: [USER],
      id: expect.stringMatching(/^usr_/),
      externalId: body.externalId,
      userName: email,
      name: { givenName: "Ada", familyName: "Lovelace", formatted: "Ada Lovelace" },
      emails: [{ value: email, primary: true, type: "work" }],
      active: true,
      meta: { resourceType: "User", location: `http://api.test/api/v1/scim/v2/Users/${created.body.id}` },
    });
    const id = created.body.id as string;

    const found = await okta.get(`/Users?filter=${filter}&startIndex=1&count=100`);
    expect(found.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, Resources: [{ id, userName: email }] });
    expect((await okta.get(`/Users/${id}`)).body).toMatchObject({ id, active: true });

    // Okta updates a profile with PUT: the whole resource, the new given name in it.
    const replaced = await okta.put(`/Users/${id}`, { ...body, id, name: { givenName: "Augusta", familyName: "King" } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.name).toEqual({ formatted: "Augusta King", givenName: "Augusta", familyName: "King" });
    expect((await get(`/users/${id}`, (await signInAdmin()).token)).body).toMatchObject({ name: "Augusta King", email });

    const deleted = await okta.del(`/Users/${id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expectScimError(await okta.get(`/Users/${id}`), 404);

    const audit = await env.DB.prepare(
      "SELECT actor_type AS type, actor_id AS actor, method, status FROM audit_events WHERE resource_id = ? ORDER BY created_at, id",
    )
      .bind(id)
      .all<{ type: string; actor: string; method: string; status: number }>();
    expect(audit.results.map((row) => `${row.type} ${row.actor} ${row.method} ${row.status}`)).toEqual([
      `scim scim:${okta.name} POST 201`,
      `scim scim:${okta.name} PUT 200`,
      `scim scim:${okta.name} DELETE 204`,
    ]);
  });

  it("deactivating (PATCH replace active:false) ends the person's sessions and takes their devices out of every peer's config at once", async () => {
    const okta = await scimClient("okta");
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id);
    await addMember(group.id, user, "member");
    const device = await enrolDevice(user, { networkId: network.id });
    const peer = await enrolDevice(admin, { networkId: network.id });
    expect(await peerIds(peer.deviceId, peer.deviceToken)).toContain(device.nodeId);

    // Okta finds the person it is assigned by userName (an account that existed before the integration).
    const found = await okta.get(`/Users?filter=${encodeURIComponent(`userName eq "${user.email}"`)}`);
    expect(found.body.Resources.map((resource: { id: string }) => resource.id)).toEqual([user.userId]);

    const deactivated = await okta.patch(`/Users/${user.userId}`, [{ op: "replace", value: { active: false } }]);
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.body.active).toBe(false);
    // Everything below is true when the answer arrives: no sync, no wait.
    expect(await peerIds(peer.deviceId, peer.deviceToken)).not.toContain(device.nodeId);
    expectError(await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken }), 401, "unauthorized");
    expectError(await get("/users/me", user.token), 401, "unauthorized");
    expectError(await call("POST", "/auth/refresh", { body: { refreshToken: user.refreshToken } }), 401, "unauthorized");

    // Reactivation lets them sign in again; it does not bring the removed device back.
    const reactivated = await okta.patch(`/Users/${user.userId}`, [{ op: "replace", value: { active: true } }]);
    expect(reactivated.body.active).toBe(true);
    expect(await peerIds(peer.deviceId, peer.deviceToken)).not.toContain(device.nodeId);
    expect((await get(`/users/${user.userId}`, admin.token)).body.disabled).toBe(false);
  });

  it('pushes a group, adds a member and removes them with members[value eq "…"]; a mapping turns that into a membership', async () => {
    const okta = await scimClient("okta");
    const admin = await signInAdmin();
    const ours = await createGroup(admin);
    const displayName = unique("Engineering");
    const mapping = await call("POST", "/admin/idp-group-mappings", {
      token: admin.token,
      body: { idpGroup: displayName, groupId: ours.id, role: "member" },
    });
    expect(mapping.status, mapping.text).toBe(201);
    const person = (await okta.post("/Users", oktaUser(`${unique("grace")}@example.com`))).body;

    const pushed = await okta.post("/Groups", { schemas: [GROUP], displayName, members: [] });
    expect(pushed.status, pushed.text).toBe(201);
    expect(pushed.body).toMatchObject({ schemas: [GROUP], id: expect.stringMatching(/^idg_/), displayName, members: [] });
    const groupId = pushed.body.id as string;
    const byName = await okta.get(`/Groups?filter=${encodeURIComponent(`displayName eq "${displayName}"`)}&excludedAttributes=members`);
    expect(byName.body.Resources).toEqual([expect.objectContaining({ id: groupId, displayName })]);
    expect(byName.body.Resources[0].members).toBeUndefined();

    const added = await okta.patch(`/Groups/${groupId}`, [
      { op: "add", path: "members", value: [{ value: person.id, display: person.userName }] },
    ]);
    expect(added.status, added.text).toBe(204);
    expect((await okta.get(`/Groups/${groupId}`)).body.members).toEqual([
      { value: person.id, display: person.userName, $ref: `http://api.test/api/v1/scim/v2/Users/${person.id}` },
    ]);
    const members = (await get(`/groups/${ours.id}/members`, admin.token)).body.items as { userId: string; role: string; source: string }[];
    expect(members.find((member) => member.userId === person.id)).toMatchObject({ role: "member", source: "idp" });

    const removed = await okta.patch(`/Groups/${groupId}`, [{ op: "remove", path: `members[value eq "${person.id}"]` }]);
    expect(removed.status, removed.text).toBe(204);
    expect((await okta.get(`/Groups/${groupId}`)).body.members).toEqual([]);
    const after = (await get(`/groups/${ours.id}/members`, admin.token)).body.items as { userId: string }[];
    expect(after.map((member) => member.userId)).not.toContain(person.id);

    // Okta renames with a replace of displayName (value object, no path), then deletes the group.
    const renamed = await okta.patch(`/Groups/${groupId}`, [{ op: "replace", value: { id: groupId, displayName: `${displayName}-2` } }]);
    expect(renamed.status, renamed.text).toBe(204);
    expect((await okta.get(`/Groups/${groupId}`)).body.displayName).toBe(`${displayName}-2`);
    expect((await okta.del(`/Groups/${groupId}`)).status).toBe(204);
    expectScimError(await okta.get(`/Groups/${groupId}`), 404);
  });
});
