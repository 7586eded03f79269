import { describe, expect, it } from "vitest";
import { call, del, get, patch, post } from "../helpers/api";
import { addMember, createGroup, createNetwork, createUser, signIn, signInAdmin } from "../helpers/factories";
import { expectError, freshAddress, from } from "./identity-helpers";

const PASSWORD = "a long enough password";

describe("users administration", { timeout: 30_000 }, () => {
  it("platform admins list, filter and get users; others get 403 on the list and 404 for other users", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const other = await createUser(admin);
    const page = await get(`/users?email=${encodeURIComponent(user.email.toUpperCase())}`, admin.token);
    expect(page.body).toEqual({ items: [expect.objectContaining({ id: user.userId, email: user.email })], nextCursor: null });
    const first = await get("/users?limit=1", admin.token);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.nextCursor).toBeTruthy();
    expect((await get(`/users/${user.userId}`, admin.token)).body.email).toBe(user.email);
    expect(JSON.stringify(page.body)).not.toContain("scrypt");

    expectError(await get("/users", user.token), 403, "forbidden");
    expectError(await get(`/users/${other.userId}`, user.token), 404, "not_found");
    expectError(await get("/users/usr_missing", admin.token), 404, "not_found");
    expect((await get(`/users/${user.userId}`, user.token)).body.id).toBe(user.userId);
    expect((await get("/users/me", user.token)).body.id).toBe(user.userId);
  });

  it("disabling ends every session at once; enabling lets the user sign in again", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const second = await signIn(user.email, PASSWORD);
    const disabled = await patch(`/users/${user.userId}`, { disabled: true }, admin.token);
    expect(disabled.body).toMatchObject({ id: user.userId, disabled: true });
    for (const session of [user, second]) {
      expectError(await get("/users/me", session.token), 401, "unauthorized");
      expectError(await post("/auth/refresh", { refreshToken: session.refreshToken }), 401, "unauthorized");
    }
    expectError(await from(freshAddress()).post("/auth/login", { email: user.email, password: PASSWORD }), 401, "unauthorized");
    expect((await patch(`/users/${user.userId}`, { disabled: false, name: "Back" }, admin.token)).body).toMatchObject({
      disabled: false,
      name: "Back",
    });
    expect((await from(freshAddress()).post("/auth/login", { email: user.email, password: PASSWORD })).status).toBe(200);
  });

  it("changes the platform role; admins cannot demote, disable or delete themselves; users cannot update anyone", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    expect((await patch(`/users/${user.userId}`, { platformRole: "admin" }, admin.token)).body.platformRole).toBe("admin");
    expectError(await patch(`/users/${admin.userId}`, { platformRole: "user" }, admin.token), 400, "validation_error");
    expectError(await patch(`/users/${admin.userId}`, { disabled: true }, admin.token), 400, "validation_error");
    expectError(await del(`/users/${admin.userId}`, admin.token), 400, "validation_error");
    const plain = await createUser(admin);
    expectError(await patch(`/users/${plain.userId}`, { platformRole: "admin" }, plain.token), 403, "forbidden");
    expectError(await patch(`/users/${user.userId}`, { email: "x@example.com" }, admin.token), 422, "VALIDATION_ERROR");
  });

  it("deletes a user (sessions and memberships go too), but not the only owner of a group", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const member = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, member, "member");
    expectError(await del(`/users/${owner.userId}`, admin.token), 409, "conflict");
    expect((await del(`/users/${member.userId}`, admin.token)).status).toBe(204);
    expectError(await get(`/users/${member.userId}`, admin.token), 404, "not_found");
    expectError(await get("/users/me", member.token), 401, "unauthorized");
    expect((await get(`/groups/${group.id}/members`, owner.token)).body.items).toHaveLength(1);
  });
});

describe("the caller's own account", { timeout: 30_000 }, () => {
  it("PATCH /users/me renames; POST /users/me/password checks the current password and ends the other sessions", async () => {
    const user = await createUser(await signInAdmin());
    const other = await signIn(user.email, PASSWORD);
    expect((await patch("/users/me", { name: "Ada" }, user.token)).body.name).toBe("Ada");
    expectError(await patch("/users/me", { platformRole: "admin" }, user.token), 422, "VALIDATION_ERROR");
    expectError(
      await post("/users/me/password", { currentPassword: "wrong password!", newPassword: "another good password" }, user.token),
      400,
      "validation_error",
    );
    expectError(await post("/users/me/password", { currentPassword: PASSWORD, newPassword: "short" }, user.token), 422, "VALIDATION_ERROR");
    expect((await post("/users/me/password", { currentPassword: PASSWORD, newPassword: "another good password" }, user.token)).status).toBe(
      204,
    );
    expect((await get("/users/me", user.token)).status).toBe(200);
    expectError(await get("/users/me", other.token), 401, "unauthorized");
    expect((await from(freshAddress()).post("/auth/login", { email: user.email, password: "another good password" })).status).toBe(200);
  });
});

describe("membership and access views", { timeout: 30_000 }, () => {
  it("lists a user's groups and every network reachable with the role, to the user and to admins only", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const user = await createUser(admin);
    const stranger = await createUser(admin);
    const ops = await createGroup(owner);
    const lab = await createGroup(owner);
    const opsNets = [await createNetwork(owner, ops.id), await createNetwork(owner, ops.id)];
    const labNet = await createNetwork(owner, lab.id);
    await createNetwork(owner, (await createGroup(owner)).id); // not reachable for the user
    await addMember(ops.id, user, "member");
    await addMember(lab.id, user, "viewer");

    const groups = await get(`/users/${user.userId}/groups`, admin.token);
    expect(groups.body.items.map((item: { groupId: string; role: string }) => [item.groupId, item.role])).toEqual([
      [ops.id, "member"],
      [lab.id, "viewer"],
    ]);
    const access = await get("/users/me/access", user.token);
    expect(access.status, access.text).toBe(200);
    const byNetwork = Object.fromEntries(
      access.body.items.map((item: { networkId: string; role: string; via: string }) => [item.networkId, `${item.role}/${item.via}`]),
    );
    expect(byNetwork).toEqual({
      [opsNets[0]!.id]: "member/membership",
      [opsNets[1]!.id]: "member/membership",
      [labNet.id]: "viewer/membership",
    });
    expect(access.body.items[0]).toMatchObject({ groupId: ops.id, groupName: ops.name, cidr: opsNets[0]!.cidr });
    const paged = await get(`/users/${user.userId}/access?limit=2`, admin.token);
    expect(paged.body.items).toHaveLength(2);
    expect((await get(`/users/${user.userId}/access?cursor=${paged.body.nextCursor}`, admin.token)).body.items).toHaveLength(1);

    expectError(await get(`/users/${user.userId}/access`, stranger.token), 404, "not_found");
    expectError(await get(`/users/${user.userId}/groups`, stranger.token), 404, "not_found");
    const adminView = await get(`/users/${admin.userId}/access?limit=200`, admin.token);
    expect(adminView.body.items.length).toBeGreaterThanOrEqual(4);
    expect(
      adminView.body.items.every((item: { role: string; via: string }) => item.role === "owner" && item.via === "platform_admin"),
    ).toBe(true);
    expectError(await call("GET", "/users/me/access?limit=0", { token: user.token }), 422, "VALIDATION_ERROR");
  });
});
