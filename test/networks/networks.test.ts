import { describe, expect, it } from "vitest";
import { api, byId, patch, put } from "../helpers/api";
import { expectError, expectRefused } from "../helpers/expect-error";
import { createGroup, createNetwork, expectStatus, networkSetup, signInAdmin } from "../helpers/factories";
import { rowsOf } from "../helpers/state";

describe("networks", () => {
  it("creates with a normalised CIDR and a default DNS domain, then reads, lists and deletes", async () => {
    const admin = await signInAdmin();
    const client = api(admin.token);
    const group = await createGroup(admin);
    const created = expectStatus(
      await client.POST("/api/v1/networks", { body: { groupId: group.id, name: "Branch Office #2", cidr: "fd00:0:0:1::/64" } }),
      201,
    );
    expect(created).toMatchObject({
      groupId: group.id,
      name: "Branch Office #2",
      cidr: "fd00:0:0:1::/64",
      dnsDomain: "branch-office-2.internal",
      routingRevision: 0,
      dnsRevision: 0,
    });
    expect(created.id).toMatch(/^net_/);
    const v4 = expectStatus(
      await client.POST("/api/v1/networks", { body: { groupId: group.id, name: "v4", cidr: " 10.1.0.0/16 ", dnsDomain: "Corp.Internal" } }),
      201,
    );
    expect(v4).toMatchObject({ cidr: "10.1.0.0/16", dnsDomain: "corp.internal" });
    const listed = expectStatus(await client.GET("/api/v1/networks", { params: { query: { groupId: group.id } } }), 200);
    expect(listed.items.map((n) => n.id)).toEqual([created.id, v4.id]);
    expect(expectStatus(await client.GET("/api/v1/networks/{id}", byId(v4.id)), 200).cidr).toBe("10.1.0.0/16");
    expect((await client.DELETE("/api/v1/networks/{id}", byId(v4.id))).response.status).toBe(204);
    expectError(await client.GET("/api/v1/networks/{id}", byId(v4.id)), 404, "not_found");
  });

  it("canonicalises IPv6 text", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const created = await api(admin.token).POST("/api/v1/networks", {
      body: { groupId: group.id, name: "six", cidr: "FD00:0000:0000:0000::/48" },
    });
    expect(expectStatus(created, 201).cidr).toBe("fd00::/48");
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
    const refused = await expectRefused(
      rowsOf("networks"),
      () => api(admin.token).POST("/api/v1/networks", { body: { groupId: group.id, name: "bad", cidr } }),
      422,
      "VALIDATION_ERROR",
      ["cidr"],
    );
    expect(refused.fields).toEqual([{ path: "cidr", message: expect.stringContaining(reason) }]);
  });

  it("refuses overlaps and duplicate names inside a group (409), allows them across groups", async () => {
    const admin = await signInAdmin();
    const client = api(admin.token);
    const group = await createGroup(admin);
    const other = await createGroup(admin);
    await createNetwork(admin, group.id, "10.30.0.0/16", "main");
    for (const cidr of ["10.30.5.0/24", "10.0.0.0/8", "10.30.0.0/16"]) {
      const overlap = await expectRefused(
        rowsOf("networks"),
        () => client.POST("/api/v1/networks", { body: { groupId: group.id, name: `n-${cidr}`, cidr } }),
        409,
        "conflict",
      );
      expect(overlap.message).toContain("overlaps 10.30.0.0/16");
    }
    await expectRefused(
      rowsOf("networks"),
      () => client.POST("/api/v1/networks", { body: { groupId: group.id, name: "main", cidr: "10.31.0.0/16" } }),
      409,
      "conflict",
    );
    expectStatus(await client.POST("/api/v1/networks", { body: { groupId: other.id, name: "main", cidr: "10.30.0.0/16" } }), 201);
    expectStatus(await client.POST("/api/v1/networks", { body: { groupId: group.id, name: "v6", cidr: "fd30::/64" } }), 201);
  });

  it("serialises concurrent creation: of overlapping requests exactly one wins", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api(admin.token).POST("/api/v1/networks", {
          body: { groupId: group.id, name: `race-${i}`, cidr: i % 2 ? "10.40.0.0/16" : "10.40.1.0/24" },
        }),
      ),
    );
    expect(attempts.filter((r) => r.response.status === 201)).toHaveLength(1);
    const refused = attempts.filter((r) => r.response.status !== 201);
    expect(refused).toHaveLength(7);
    for (const loser of refused) expectError(loser, 409, "conflict");
  });

  it("PATCH changes some fields, PUT replaces them; both keep the group's rules", async () => {
    const admin = await signInAdmin();
    const client = api(admin.token);
    const group = await createGroup(admin);
    const a = await createNetwork(admin, group.id, "10.50.0.0/24", "a");
    await createNetwork(admin, group.id, "10.51.0.0/24", "b");
    const renamed = expectStatus(await client.PATCH("/api/v1/networks/{id}", { ...byId(a.id), body: { name: "alpha" } }), 200);
    expect(renamed).toMatchObject({ name: "alpha", cidr: "10.50.0.0/24", dnsRevision: 0 });
    const unchanged = rowsOf("networks");
    await expectRefused(
      unchanged,
      () => client.PATCH("/api/v1/networks/{id}", { ...byId(a.id), body: { cidr: "10.51.0.0/23" } }),
      409,
      "conflict",
    );
    await expectRefused(unchanged, () => client.PATCH("/api/v1/networks/{id}", { ...byId(a.id), body: { name: "b" } }), 409, "conflict");
    // Outside the schema on purpose (a network never changes group): sent raw.
    await expectRefused(unchanged, () => patch(`/networks/${a.id}`, { groupId: "grp_other" }, admin.token), 422, "VALIDATION_ERROR");
    const replaced = expectStatus(
      await client.PUT("/api/v1/networks/{id}", { ...byId(a.id), body: { name: "alpha", cidr: "10.52.0.0/24", dnsDomain: "alpha.corp" } }),
      200,
    );
    expect(replaced).toMatchObject({ cidr: "10.52.0.0/24", dnsDomain: "alpha.corp", dnsRevision: 1, routingRevision: 1 });
    await expectRefused(unchanged, () => put(`/networks/${a.id}`, { name: "alpha" }, admin.token), 422, "VALIDATION_ERROR");
  });

  it("group roles: viewers read, members cannot create or change networks", async () => {
    const { network, group, as } = await networkSetup({ owner: "user" });
    const member = await as("member");
    const viewer = await as("viewer");
    expectStatus(await api(viewer.token).GET("/api/v1/networks/{id}", byId(network.id)), 200);
    expect(expectStatus(await api(viewer.token).GET("/api/v1/networks"), 200).items.map((n) => n.id)).toEqual([network.id]);
    const unchanged = rowsOf("networks");
    await expectRefused(
      unchanged,
      () => api(member.token).POST("/api/v1/networks", { body: { groupId: group.id, name: "m", cidr: "10.60.0.0/24" } }),
      403,
      "forbidden",
    );
    await expectRefused(
      unchanged,
      () => api(viewer.token).PATCH("/api/v1/networks/{id}", { ...byId(network.id), body: { name: "x" } }),
      403,
      "forbidden",
    );
    await expectRefused(unchanged, () => api(member.token).DELETE("/api/v1/networks/{id}", byId(network.id)), 403, "forbidden");
  });

  it("validates dnsDomain", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    await expectRefused(
      rowsOf("networks"),
      () =>
        api(admin.token).POST("/api/v1/networks", {
          body: { groupId: group.id, name: "d", cidr: "10.70.0.0/24", dnsDomain: "-bad-.internal" },
        }),
      422,
      "VALIDATION_ERROR",
      ["dnsDomain"],
    );
  });
});
