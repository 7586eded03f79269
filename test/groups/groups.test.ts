import { describe, expect, it } from "vitest";
import { api, byId, get } from "../helpers/api";
import { expectError, expectRefused } from "../helpers/expect-error";
import { addMember, createGroup, createNetwork, createUser, expectStatus, signInAdmin, unique } from "../helpers/factories";
import { rowsOf } from "../helpers/state";

const groupsAndMembers = rowsOf("groups", "memberships");
const member = (groupId: string, userId: string) => ({ params: { path: { id: groupId, userId } } });

describe("groups", () => {
  it("the creator owns the group; it lists, reads, renames and deletes", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const client = api(user.token);
    const created = expectStatus(await client.POST("/api/v1/groups", { body: { name: "Ops" } }), 201);
    expect(created).toMatchObject({ name: "Ops", role: "owner" });
    expect(created.id).toMatch(/^grp_/);
    expect(expectStatus(await client.GET("/api/v1/groups"), 200).items.map((g) => g.id)).toEqual([created.id]);
    expect(expectStatus(await client.GET("/api/v1/groups/{id}", byId(created.id)), 200).name).toBe("Ops");
    const renamed = expectStatus(await client.PATCH("/api/v1/groups/{id}", { ...byId(created.id), body: { name: "Operations" } }), 200);
    expect(renamed.name).toBe("Operations");
    expect((await client.DELETE("/api/v1/groups/{id}", byId(created.id))).response.status).toBe(204);
    expectError(await client.GET("/api/v1/groups/{id}", byId(created.id)), 404, "not_found");
  });

  it("paginates with a stable cursor and honours limit bounds", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const client = api(user.token);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createGroup(user)).id);
    const page = async (query: { limit?: number; cursor?: string }) =>
      expectStatus(await client.GET("/api/v1/groups", { params: { query } }), 200);
    const first = await page({ limit: 2 });
    expect(first.items.map((g) => g.id)).toEqual(ids.slice(0, 2));
    const second = await page({ limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.items.map((g) => g.id)).toEqual(ids.slice(2, 4));
    const third = await page({ limit: 2, cursor: second.nextCursor ?? undefined });
    expect(third.items.map((g) => g.id)).toEqual(ids.slice(4));
    expect(third.nextCursor).toBeNull();
    // Out-of-range values, sent raw: the schema's own bounds would stop them in the typed client.
    expectError(await get("/groups?limit=0", user.token), 422, "VALIDATION_ERROR", ["limit"]);
    expectError(await get("/groups?limit=201", user.token), 422, "VALIDATION_ERROR", ["limit"]);
    expectError(await client.GET("/api/v1/groups", { params: { query: { cursor: "garbage" } } }), 422, "VALIDATION_ERROR", ["cursor"]);
  });

  it("without ?limit a page holds 50 items", async () => {
    const user = await createUser(await signInAdmin());
    for (let i = 0; i < 51; i++) await createGroup(user);
    const page = expectStatus(await api(user.token).GET("/api/v1/groups"), 200);
    expect(page.items).toHaveLength(50);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it("refuses to delete a group that owns networks (409)", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    await createNetwork(admin, group.id);
    await expectRefused(
      rowsOf("groups", "memberships", "networks"),
      () => api(admin.token).DELETE("/api/v1/groups/{id}", byId(group.id)),
      409,
      "conflict",
    );
  });
});

describe("group members", () => {
  it("owners add, change and remove members; roles gate what members may do", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const viewer = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, viewer, "viewer");
    const members = expectStatus(await api(viewer.token).GET("/api/v1/groups/{id}/members", byId(group.id)), 200);
    expect(members.items.map((m) => [m.userId, m.role])).toEqual([
      [owner.userId, "owner"],
      [viewer.userId, "viewer"],
    ]);
    await expectRefused(
      groupsAndMembers,
      () => api(viewer.token).PATCH("/api/v1/groups/{id}", { ...byId(group.id), body: { name: "nope" } }),
      403,
      "forbidden",
    );
    const promoted = expectStatus(
      await api(owner.token).PATCH("/api/v1/groups/{id}/members/{userId}", {
        ...member(group.id, viewer.userId),
        body: { role: "admin" },
      }),
      200,
    );
    expect(promoted.role).toBe("admin");
    expectStatus(await api(viewer.token).PATCH("/api/v1/groups/{id}", { ...byId(group.id), body: { name: unique("renamed") } }), 200);
    expect((await api(owner.token).DELETE("/api/v1/groups/{id}/members/{userId}", member(group.id, viewer.userId))).response.status).toBe(
      204,
    );
    expectError(await api(viewer.token).GET("/api/v1/groups/{id}", byId(group.id)), 404, "not_found");
  });

  it("an owner adds by email only people it shares a group with; strangers and unknowns alike are 404", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const other = await createUser(admin);
    const group = await createGroup(owner);
    const client = api(owner.token);
    const add = (body: { email?: string; userId?: string; role: "member" | "viewer" }) =>
      client.POST("/api/v1/groups/{id}/members", { ...byId(group.id), body });
    const stranger = await expectRefused(groupsAndMembers, () => add({ email: other.email, role: "member" }), 404, "not_found");
    const unknown = await expectRefused(
      groupsAndMembers,
      () => add({ email: "nobody-at-all@example.com", role: "member" }),
      404,
      "not_found",
    );
    expect(unknown).toEqual(stranger);

    const shared = await createGroup(admin);
    await addMember(shared.id, owner, "viewer");
    await addMember(shared.id, other, "viewer");
    const added = expectStatus(await add({ email: other.email.toUpperCase(), role: "member" }), 201);
    expect(added.userId).toBe(other.userId);
    await expectRefused(groupsAndMembers, () => add({ userId: other.userId, role: "viewer" }), 409, "conflict");
    await expectRefused(groupsAndMembers, () => add({ userId: "usr_nobody", role: "viewer" }), 404, "not_found");
    await expectRefused(groupsAndMembers, () => add({ role: "viewer" }), 422, "VALIDATION_ERROR");
  });

  it("a platform admin adds any account directly", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const other = await createUser(admin);
    const group = await createGroup(owner);
    expectStatus(
      await api(admin.token).POST("/api/v1/groups/{id}/members", { ...byId(group.id), body: { email: other.email, role: "member" } }),
      201,
    );
  });

  it("admins cannot grant or touch the owner role; the last owner cannot leave or be demoted", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const groupAdmin = await createUser(admin);
    const plain = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, groupAdmin, "admin");
    await addMember(group.id, plain, "member");
    const asAdmin = api(groupAdmin.token);
    const asOwner = api(owner.token);
    await expectRefused(
      groupsAndMembers,
      () => asAdmin.PATCH("/api/v1/groups/{id}/members/{userId}", { ...member(group.id, plain.userId), body: { role: "owner" } }),
      403,
      "forbidden",
    );
    await expectRefused(
      groupsAndMembers,
      () => asAdmin.DELETE("/api/v1/groups/{id}/members/{userId}", member(group.id, owner.userId)),
      403,
      "forbidden",
    );
    await expectRefused(
      groupsAndMembers,
      () => asOwner.PATCH("/api/v1/groups/{id}/members/{userId}", { ...member(group.id, owner.userId), body: { role: "admin" } }),
      409,
      "conflict",
    );
    await expectRefused(
      groupsAndMembers,
      () => asOwner.DELETE("/api/v1/groups/{id}/members/{userId}", member(group.id, owner.userId)),
      409,
      "conflict",
    );
    // With a second owner the first may step down.
    expectStatus(
      await asOwner.PATCH("/api/v1/groups/{id}/members/{userId}", { ...member(group.id, plain.userId), body: { role: "owner" } }),
      200,
    );
    expect((await asOwner.DELETE("/api/v1/groups/{id}/members/{userId}", member(group.id, owner.userId))).response.status).toBe(204);
    // A member may leave on their own.
    expect((await asAdmin.DELETE("/api/v1/groups/{id}/members/{userId}", member(group.id, groupAdmin.userId))).response.status).toBe(204);
  });
});
