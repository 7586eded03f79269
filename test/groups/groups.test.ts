import { describe, expect, it } from "vitest";
import { del, get, patch, post } from "../helpers/api";
import { addMember, createGroup, createNetwork, createUser, signInAdmin, unique } from "../helpers/factories";

describe("groups", () => {
  it("the creator owns the group; it lists, reads, renames and deletes", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const created = await post("/groups", { name: "Ops" }, user.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Ops", role: "owner" });
    expect(created.body.id).toMatch(/^grp_/);
    const listed = await get("/groups", user.token);
    expect(listed.body.items.map((g: { id: string }) => g.id)).toEqual([created.body.id]);
    expect((await get(`/groups/${created.body.id}`, user.token)).body.name).toBe("Ops");
    const renamed = await patch(`/groups/${created.body.id}`, { name: "Operations" }, user.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Operations");
    expect((await del(`/groups/${created.body.id}`, user.token)).status).toBe(204);
    expect((await get(`/groups/${created.body.id}`, user.token)).status).toBe(404);
  });

  it("paginates with a stable cursor and honours limit bounds", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createGroup(user)).id);
    const first = await get("/groups?limit=2", user.token);
    expect(first.body.items.map((g: { id: string }) => g.id)).toEqual(ids.slice(0, 2));
    const second = await get(`/groups?limit=2&cursor=${first.body.nextCursor}`, user.token);
    expect(second.body.items.map((g: { id: string }) => g.id)).toEqual(ids.slice(2, 4));
    const third = await get(`/groups?limit=2&cursor=${second.body.nextCursor}`, user.token);
    expect(third.body.items.map((g: { id: string }) => g.id)).toEqual(ids.slice(4));
    expect(third.body.nextCursor).toBeNull();
    expect((await get("/groups?limit=0", user.token)).status).toBe(422);
    expect((await get("/groups?limit=201", user.token)).status).toBe(422);
    const badCursor = await get("/groups?cursor=garbage", user.token);
    expect(badCursor.status).toBe(422);
    expect(badCursor.body.error.fields[0].path).toBe("cursor");
  });

  it("without ?limit a page holds 50 items", async () => {
    const user = await createUser(await signInAdmin());
    for (let i = 0; i < 51; i++) await createGroup(user);
    const page = await get("/groups", user.token);
    expect(page.body.items).toHaveLength(50);
    expect(page.body.nextCursor).toEqual(expect.any(String));
  });

  it("refuses to delete a group that owns networks (409)", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    await createNetwork(admin, group.id);
    expect((await del(`/groups/${group.id}`, admin.token)).status).toBe(409);
  });
});

describe("group members", () => {
  it("owners add, change and remove members; roles gate what members may do", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const viewer = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, viewer, "viewer");
    const members = await get(`/groups/${group.id}/members`, viewer.token);
    expect(members.status).toBe(200);
    expect(members.body.items.map((m: { userId: string; role: string }) => [m.userId, m.role]))
      .toEqual([[owner.userId, "owner"], [viewer.userId, "viewer"]]);
    expect((await patch(`/groups/${group.id}`, { name: "nope" }, viewer.token)).status).toBe(403);
    const promoted = await patch(`/groups/${group.id}/members/${viewer.userId}`, { role: "admin" }, owner.token);
    expect(promoted.body.role).toBe("admin");
    expect((await patch(`/groups/${group.id}`, { name: unique("renamed") }, viewer.token)).status).toBe(200);
    expect((await del(`/groups/${group.id}/members/${viewer.userId}`, owner.token)).status).toBe(204);
    expect((await get(`/groups/${group.id}`, viewer.token)).status).toBe(404);
  });

  it("an owner adds by email only people it shares a group with; strangers and unknowns alike are 404", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const other = await createUser(admin);
    const group = await createGroup(owner);
    const stranger = await post(`/groups/${group.id}/members`, { email: other.email, role: "member" }, owner.token);
    expect(stranger.status).toBe(404);
    const unknown = await post(`/groups/${group.id}/members`, { email: "nobody-at-all@example.com", role: "member" }, owner.token);
    expect(unknown.body).toEqual(stranger.body);

    const shared = await createGroup(admin);
    await addMember(shared.id, owner, "viewer");
    await addMember(shared.id, other, "viewer");
    const added = await post(`/groups/${group.id}/members`, { email: other.email.toUpperCase(), role: "member" }, owner.token);
    expect(added.status).toBe(201);
    expect(added.body.userId).toBe(other.userId);
    expect((await post(`/groups/${group.id}/members`, { userId: other.userId, role: "viewer" }, owner.token)).status).toBe(409);
    expect((await post(`/groups/${group.id}/members`, { userId: "usr_nobody", role: "viewer" }, owner.token)).status).toBe(404);
    expect((await post(`/groups/${group.id}/members`, { role: "viewer" }, owner.token)).status).toBe(422);
  });

  it("a platform admin adds any account directly", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const other = await createUser(admin);
    const group = await createGroup(owner);
    expect((await post(`/groups/${group.id}/members`, { email: other.email, role: "member" }, admin.token)).status).toBe(201);
  });

  it("admins cannot grant or touch the owner role; the last owner cannot leave or be demoted", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const groupAdmin = await createUser(admin);
    const member = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, groupAdmin, "admin");
    await addMember(group.id, member, "member");
    expect((await patch(`/groups/${group.id}/members/${member.userId}`, { role: "owner" }, groupAdmin.token)).status).toBe(403);
    expect((await del(`/groups/${group.id}/members/${owner.userId}`, groupAdmin.token)).status).toBe(403);
    expect((await patch(`/groups/${group.id}/members/${owner.userId}`, { role: "admin" }, owner.token)).status).toBe(409);
    expect((await del(`/groups/${group.id}/members/${owner.userId}`, owner.token)).status).toBe(409);
    // With a second owner the first may step down.
    await patch(`/groups/${group.id}/members/${member.userId}`, { role: "owner" }, owner.token);
    expect((await del(`/groups/${group.id}/members/${owner.userId}`, owner.token)).status).toBe(204);
    // A member may leave on their own.
    expect((await del(`/groups/${group.id}/members/${groupAdmin.userId}`, groupAdmin.token)).status).toBe(204);
  });
});
