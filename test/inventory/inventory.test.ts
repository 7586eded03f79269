import { describe, expect, it } from "vitest";
import { api, byId } from "../helpers/api";
import { expectError, expectRefused } from "../helpers/expect-error";
import { createGateway, createUser, expectStatus, networkSetup, signInAdmin, unique } from "../helpers/factories";
import { rowsOf } from "../helpers/state";

const inventory = rowsOf("regions", "gateways", "nodes");

describe("regions and gateways inventory", () => {
  it("platform admins write it; every signed-in user reads it; others get 403 on writes", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const asAdmin = api(admin.token);
    const asUser = api(user.token);
    const region = expectStatus(await asAdmin.POST("/api/v1/regions", { body: { name: unique("eu-west") } }), 201);
    await expectRefused(inventory, () => asUser.POST("/api/v1/regions", { body: { name: unique("x") } }), 403, "forbidden");
    const gateway = expectStatus(
      await asAdmin.POST("/api/v1/gateways", {
        body: { regionId: region.id, name: unique("gw"), publicHost: "gw.example.net", capacity: 500 },
      }),
      201,
    );
    expect(gateway).toMatchObject({ status: "active", publicHost: "gw.example.net", capacity: 500 });
    await expectRefused(
      inventory,
      () => asUser.POST("/api/v1/gateways", { body: { regionId: region.id, name: unique("gw") } }),
      403,
      "forbidden",
    );
    expect(expectStatus(await asUser.GET("/api/v1/gateways/{id}", byId(gateway.id)), 200)).toEqual({ ...gateway, networks: [] });
    expect(gateway).toMatchObject({ health: "unknown", healthCheckedAt: null });
    expectStatus(await asUser.GET("/api/v1/regions/{id}", byId(region.id)), 200);
    await expectRefused(
      inventory,
      () => asUser.PATCH("/api/v1/gateways/{id}", { ...byId(gateway.id), body: { status: "draining" } }),
      403,
      "forbidden",
    );
    await expectRefused(inventory, () => asUser.DELETE("/api/v1/gateways/{id}", byId(gateway.id)), 403, "forbidden");
    expectError(await api().GET("/api/v1/gateways"), 401, "unauthorized");
  });

  it("filters gateways by region and status; names are unique (409)", async () => {
    const admin = await signInAdmin();
    const client = api(admin.token);
    const active = await createGateway(admin);
    const draining = await createGateway(admin, "draining");
    const byRegion = expectStatus(await client.GET("/api/v1/gateways", { params: { query: { regionId: active.regionId } } }), 200);
    expect(byRegion.items.map((g) => g.id)).toEqual([active.id]);
    const byStatus = expectStatus(await client.GET("/api/v1/gateways", { params: { query: { status: "draining" } } }), 200);
    expect(byStatus.items.map((g) => g.id)).toContain(draining.id);
    expect(byStatus.items.every((g) => g.status === "draining")).toBe(true);
    await expectRefused(
      inventory,
      () => client.POST("/api/v1/gateways", { body: { regionId: active.regionId, name: active.name } }),
      409,
      "conflict",
    );
    await expectRefused(
      inventory,
      () => client.POST("/api/v1/gateways", { body: { regionId: "reg_missing", name: unique("gw") } }),
      400,
      "validation_error",
    );
  });

  it("shows the networks a gateway serves, but only those the caller can see", async () => {
    const {
      admin,
      network,
      hops: [node],
    } = await networkSetup({ gateways: 1 });
    const gatewayId = node!.gatewayId!;
    expect(expectStatus(await api(admin.token).GET("/api/v1/gateways/{id}", byId(gatewayId)), 200).networks).toEqual([
      { networkId: network.id, nodeId: node!.id },
    ]);
    const outsider = await createUser(admin);
    expect(expectStatus(await api(outsider.token).GET("/api/v1/gateways/{id}", byId(gatewayId)), 200).networks).toEqual([]);
  });

  it("refuses to delete what is still referenced (409)", async () => {
    const {
      admin,
      hops: [node],
    } = await networkSetup({ gateways: 1 });
    const client = api(admin.token);
    const gatewayId = node!.gatewayId!;
    const regionId = expectStatus(await client.GET("/api/v1/gateways/{id}", byId(gatewayId)), 200).regionId;
    await expectRefused(inventory, () => client.DELETE("/api/v1/gateways/{id}", byId(gatewayId)), 409, "conflict");
    await expectRefused(inventory, () => client.DELETE("/api/v1/regions/{id}", byId(regionId)), 409, "conflict");
    expect((await client.DELETE("/api/v1/nodes/{id}", byId(node!.id))).response.status).toBe(204);
    expect((await client.DELETE("/api/v1/gateways/{id}", byId(gatewayId))).response.status).toBe(204);
    expect((await client.DELETE("/api/v1/regions/{id}", byId(regionId))).response.status).toBe(204);
  });
});
