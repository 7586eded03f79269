import { describe, expect, it } from "vitest";
import { del, get, patch, post, put } from "../helpers/api";
import { addMember, createGroup, createNetwork, createUser, signInAdmin } from "../helpers/factories";

describe("networks", () => {
  it("creates with a normalised CIDR and a default DNS domain, then reads, lists and deletes", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const created = await post("/networks", { groupId: group.id, name: "Branch Office #2", cidr: "fd00:0:0:1::/64" }, admin.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      groupId: group.id, name: "Branch Office #2", cidr: "fd00:0:0:1::/64",
      dnsDomain: "branch-office-2.internal", routingRevision: 0, dnsRevision: 0,
    });
    expect(created.body.id).toMatch(/^net_/);
    const v4 = await post("/networks", { groupId: group.id, name: "v4", cidr: " 10.1.0.0/16 ", dnsDomain: "Corp.Internal" }, admin.token);
    expect(v4.body).toMatchObject({ cidr: "10.1.0.0/16", dnsDomain: "corp.internal" });
    const listed = await get(`/networks?groupId=${group.id}`, admin.token);
    expect(listed.body.items.map((n: { id: string }) => n.id)).toEqual([created.body.id, v4.body.id]);
    expect((await get(`/networks/${v4.body.id}`, admin.token)).body.cidr).toBe("10.1.0.0/16");
    expect((await del(`/networks/${v4.body.id}`, admin.token)).status).toBe(204);
    expect((await get(`/networks/${v4.body.id}`, admin.token)).status).toBe(404);
  });

  it("canonicalises IPv6 text", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const created = await post("/networks", { groupId: group.id, name: "six", cidr: "FD00:0000:0000:0000::/48" }, admin.token);
    expect(created.body.cidr).toBe("fd00::/48");
  });

  it.each([
    ["10.0.0.1/24", "Host bits"],
    ["10.0.0.0/33", "at most 32"],
    ["fd00::1/64", "Host bits"],
    ["10.0.0.0", "address/prefix"],
    ["300.0.0.0/8", "Not an IPv4 or IPv6"],
    ["010.0.0.0/8", "Not an IPv4 or IPv6"],
    ["fe80::%eth0/64", "Not an IPv4 or IPv6"],
  ])("refuses cidr %s with 422 (%s)", async (cidr, reason) => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const response = await post("/networks", { groupId: group.id, name: "bad", cidr }, admin.token);
    expect(response.status).toBe(422);
    expect(response.body.error.fields).toEqual([{ path: "cidr", message: expect.stringContaining(reason) }]);
  });

  it("refuses overlaps and duplicate names inside a group (409), allows them across groups", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const other = await createGroup(admin);
    await createNetwork(admin, group.id, "10.30.0.0/16", "main");
    for (const cidr of ["10.30.5.0/24", "10.0.0.0/8", "10.30.0.0/16"]) {
      const overlap = await post("/networks", { groupId: group.id, name: `n-${cidr}`, cidr }, admin.token);
      expect(overlap.status).toBe(409);
      expect(overlap.body.error.message).toContain("overlaps 10.30.0.0/16");
    }
    expect((await post("/networks", { groupId: group.id, name: "main", cidr: "10.31.0.0/16" }, admin.token)).status).toBe(409);
    expect((await post("/networks", { groupId: other.id, name: "main", cidr: "10.30.0.0/16" }, admin.token)).status).toBe(201);
    expect((await post("/networks", { groupId: group.id, name: "v6", cidr: "fd30::/64" }, admin.token)).status).toBe(201);
  });

  it("serialises concurrent creation: of overlapping requests exactly one wins", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const attempts = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      post("/networks", { groupId: group.id, name: `race-${i}`, cidr: i % 2 ? "10.40.0.0/16" : "10.40.1.0/24" }, admin.token)));
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(1);
    expect(attempts.filter((r) => r.status === 409)).toHaveLength(7);
  });

  it("PATCH changes some fields, PUT replaces them; both keep the group's rules", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const a = await createNetwork(admin, group.id, "10.50.0.0/24", "a");
    await createNetwork(admin, group.id, "10.51.0.0/24", "b");
    const renamed = await patch(`/networks/${a.id}`, { name: "alpha" }, admin.token);
    expect(renamed.body).toMatchObject({ name: "alpha", cidr: "10.50.0.0/24", dnsRevision: 0 });
    expect((await patch(`/networks/${a.id}`, { cidr: "10.51.0.0/23" }, admin.token)).status).toBe(409);
    expect((await patch(`/networks/${a.id}`, { name: "b" }, admin.token)).status).toBe(409);
    expect((await patch(`/networks/${a.id}`, { groupId: "grp_other" }, admin.token)).status).toBe(422);
    const replaced = await put(`/networks/${a.id}`, { name: "alpha", cidr: "10.52.0.0/24", dnsDomain: "alpha.corp" }, admin.token);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ cidr: "10.52.0.0/24", dnsDomain: "alpha.corp", dnsRevision: 1, routingRevision: 1 });
    expect((await put(`/networks/${a.id}`, { name: "alpha" }, admin.token)).status).toBe(422);
  });

  it("group roles: viewers read, members cannot create or change networks", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const member = await createUser(admin);
    const viewer = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, member, "member");
    await addMember(group.id, viewer, "viewer");
    const network = await createNetwork(owner, group.id);
    expect((await get(`/networks/${network.id}`, viewer.token)).status).toBe(200);
    expect((await get("/networks", viewer.token)).body.items.map((n: { id: string }) => n.id)).toEqual([network.id]);
    expect((await post("/networks", { groupId: group.id, name: "m", cidr: "10.60.0.0/24" }, member.token)).status).toBe(403);
    expect((await patch(`/networks/${network.id}`, { name: "x" }, viewer.token)).status).toBe(403);
    expect((await del(`/networks/${network.id}`, member.token)).status).toBe(403);
  });

  it("validates dnsDomain", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const response = await post("/networks", { groupId: group.id, name: "d", cidr: "10.70.0.0/24", dnsDomain: "-bad-.internal" }, admin.token);
    expect(response.status).toBe(422);
    expect(response.body.error.fields[0].path).toBe("dnsDomain");
  });
});
