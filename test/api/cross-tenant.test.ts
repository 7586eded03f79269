import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { createGroup, createNetwork, createUser, signInAdmin } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";

/** User B is signed in and valid, but has no membership in A's group: A's things do not exist for B. */
describe("cross-tenant isolation", () => {
  it.each([
    ["GET", (g: string) => `/groups/${g}`, undefined],
    ["PATCH", (g: string) => `/groups/${g}`, { name: "stolen" }],
    ["DELETE", (g: string) => `/groups/${g}`, undefined],
    ["GET", (g: string) => `/groups/${g}/members`, undefined],
    ["POST", (g: string) => `/groups/${g}/members`, { userId: "usr_x", role: "owner" }],
    ["PATCH", (g: string) => `/groups/${g}/members/usr_x`, { role: "owner" }],
    ["DELETE", (g: string) => `/groups/${g}/members/usr_x`, undefined],
    ["GET", (_g: string, n: string) => `/networks/${n}`, undefined],
    ["PATCH", (_g: string, n: string) => `/networks/${n}`, { name: "stolen" }],
    ["PUT", (_g: string, n: string) => `/networks/${n}`, { name: "stolen", cidr: "10.0.0.0/24", dnsDomain: "x.y" }],
    ["DELETE", (_g: string, n: string) => `/networks/${n}`, undefined],
  ] as const)("%s %s of another tenant answers 404 and changes nothing", async (method, path, body) => {
    const admin = await signInAdmin();
    const alice = await createUser(admin);
    const bob = await createUser(admin);
    const group = await createGroup(alice);
    const network = await createNetwork(alice, group.id);
    const response = await call(method, path(group.id, network.id), { token: bob.token, body });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("not_found");
    expect((await get(`/networks/${network.id}`, alice.token)).body).toEqual(network);
    expect((await get(`/groups/${group.id}`, alice.token)).body.name).toBe(group.name);
  });

  it("B cannot create a network in A's group, and lists show only B's own", async () => {
    const admin = await signInAdmin();
    const alice = await createUser(admin);
    const bob = await createUser(admin);
    const aliceGroup = await createGroup(alice);
    const aliceNet = await createNetwork(alice, aliceGroup.id);
    const bobGroup = await createGroup(bob);
    const bobNet = await createNetwork(bob, bobGroup.id);
    expectError(await post("/networks", { groupId: aliceGroup.id, name: "x", cidr: "10.99.0.0/24" }, bob.token), 404, "not_found");
    expect((await get("/networks", bob.token)).body.items.map((n: { id: string }) => n.id)).toEqual([bobNet.id]);
    expect((await get(`/networks?groupId=${aliceGroup.id}`, bob.token)).body.items).toEqual([]);
    expect((await get("/groups", bob.token)).body.items.map((g: { id: string }) => g.id)).toEqual([bobGroup.id]);
    // Platform admins see both.
    const all = (await get("/networks?limit=200", admin.token)).body.items.map((n: { id: string }) => n.id);
    expect(all).toEqual(expect.arrayContaining([aliceNet.id, bobNet.id]));
  });
});
