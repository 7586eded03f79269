// Microsoft Entra ID's provisioning requests, as its SCIM guide ("Develop and plan provisioning for a SCIM
// endpoint") lists them: ops spelt "Replace"/"Add"/"Remove", booleans as the strings "True"/"False", a userName
// that is a UPN (not always an address: the primary email is then the sign-in), the enterprise extension in
// schemas, `emails[type eq "work"].value` paths, and members removed by value list.
import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { addMember, createGroup, createNetwork, createUser, enrolDevice, signInAdmin, unique } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";
import { GROUP, USER, scimClient } from "./scim-helpers";

const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

const entraUser = (userName: string, email: string) => ({
  schemas: [USER, ENTERPRISE],
  externalId: crypto.randomUUID(),
  userName,
  active: true,
  emails: [{ primary: true, type: "work", value: email }],
  meta: { resourceType: "User" },
  name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
  roles: [],
  [ENTERPRISE]: { department: "Research", manager: { value: "boss" } },
});

describe("Microsoft Entra ID's provisioning requests", () => {
  it('creates a person whose userName is not an address, patches their email and family name, and disables them with "False"', async () => {
    const entra = await scimClient("entra");
    const userName = `Test_User_${crypto.randomUUID()}`;
    const email = `${unique("test-user")}@testuser.example`;
    const filter = encodeURIComponent(`userName eq "${userName}"`);
    expect((await entra.get(`/Users?filter=${filter}`)).body.totalResults).toBe(0);

    const created = await entra.post("/Users", entraUser(userName, email));
    expect(created.status, created.text).toBe(201);
    // The sign-in is the primary email; userName answers as Entra sent it, and finds the person again.
    expect(created.body).toMatchObject({ userName, emails: [{ value: email }], name: { formatted: "givenName familyName" }, active: true });
    expect((await get(`/users/${created.body.id}`, (await signInAdmin()).token)).body.email).toBe(email);
    expect((await entra.get(`/Users?filter=${filter}`)).body.Resources.map((user: { id: string }) => user.id)).toEqual([created.body.id]);
    const id = created.body.id as string;

    const updatedEmail = `${unique("updated")}@example.com`;
    const changed = await entra.patch(`/Users/${id}`, [
      { op: "Replace", path: 'emails[type eq "work"].value', value: updatedEmail },
      { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
    ]);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      userName,
      emails: [{ value: updatedEmail }],
      name: { familyName: "updatedFamilyName", givenName: "givenName" },
    });

    const disabled = await entra.patch(`/Users/${id}`, [{ op: "Replace", path: "active", value: "False" }]);
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.active).toBe(false);
    expect((await get(`/users/${id}`, (await signInAdmin()).token)).body.disabled).toBe(true);
    expect((await entra.patch(`/Users/${id}`, [{ op: "Replace", path: "active", value: "True" }])).body.active).toBe(true);
  });

  it("a disabled person's devices stop at once; a member added by value list and removed by value list", async () => {
    const entra = await scimClient("entra");
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const manual = await createGroup(admin);
    const network = await createNetwork(admin, manual.id);
    await addMember(manual.id, user, "member");
    const device = await enrolDevice(user, { networkId: network.id });

    const displayName = unique("entra-group");
    const pushed = await entra.post("/Groups", {
      schemas: [GROUP],
      externalId: crypto.randomUUID(),
      displayName,
      meta: { resourceType: "Group" },
    });
    expect(pushed.status, pushed.text).toBe(201);
    expect(pushed.body.members).toEqual([]);
    const groupId = pushed.body.id as string;
    const query = await entra.get(`/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "${displayName}"`)}`);
    expect(query.body.Resources.map((group: { id: string }) => group.id)).toEqual([groupId]);

    const added = await entra.patch(`/Groups/${groupId}`, [{ op: "Add", path: "members", value: [{ $ref: null, value: user.userId }] }]);
    expect(added.status, added.text).toBe(204);
    expect((await entra.get(`/Groups/${groupId}`)).body.members.map((member: { value: string }) => member.value)).toEqual([user.userId]);
    const renamed = await entra.patch(`/Groups/${groupId}`, [
      { op: "Replace", path: "displayName", value: `${displayName}updatedDisplayName` },
    ]);
    expect(renamed.status, renamed.text).toBe(204);
    const removed = await entra.patch(`/Groups/${groupId}`, [
      { op: "Remove", path: "members", value: [{ $ref: null, value: user.userId }] },
    ]);
    expect(removed.status, removed.text).toBe(204);
    expect((await entra.get(`/Groups/${groupId}?excludedAttributes=members`)).body).not.toHaveProperty("members");
    expect((await entra.get(`/Groups/${groupId}`)).body.members).toEqual([]);
    // No mapping names this group and the person's membership was given by hand: leaving it changes nothing.
    expect((await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken })).status).toBe(200);

    expect((await entra.patch(`/Users/${user.userId}`, [{ op: "Replace", path: "active", value: "False" }])).status).toBe(200);
    expectError(await call("POST", `/client/devices/${device.deviceId}/config`, { token: device.deviceToken }), 401, "unauthorized");
    expectError(await get(`/nodes/${device.nodeId}`, admin.token), 404, "not_found");
  });
});
