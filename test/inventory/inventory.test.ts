import { describe, expect, it } from "vitest";
import { del, get, patch, post } from "../helpers/api";
import { createGateway, createUser, gatewayNetwork, signInAdmin, unique } from "../helpers/factories";

describe("regions and gateways inventory", () => {
  it("platform admins write it; every signed-in user reads it; others get 403 on writes", async () => {
    const admin = await signInAdmin();
    const user = await createUser(admin);
    const region = await post("/regions", { name: unique("eu-west") }, admin.token);
    expect(region.status).toBe(201);
    expect((await post("/regions", { name: unique("x") }, user.token)).status).toBe(403);
    const gateway = await post("/gateways", { regionId: region.body.id, name: unique("gw"), publicHost: "gw.example.net", capacity: 500 }, admin.token);
    expect(gateway.status).toBe(201);
    expect(gateway.body).toMatchObject({ status: "active", publicHost: "gw.example.net", capacity: 500 });
    expect((await post("/gateways", { regionId: region.body.id, name: unique("gw") }, user.token)).status).toBe(403);
    expect((await get(`/gateways/${gateway.body.id}`, user.token)).body).toEqual({ ...gateway.body, networks: [] });
    expect(gateway.body).toMatchObject({ health: "unknown", healthCheckedAt: null });
    expect((await get(`/regions/${region.body.id}`, user.token)).status).toBe(200);
    expect((await patch(`/gateways/${gateway.body.id}`, { status: "draining" }, user.token)).status).toBe(403);
    expect((await del(`/gateways/${gateway.body.id}`, user.token)).status).toBe(403);
    expect((await get("/gateways")).status).toBe(401);
  });

  it("filters gateways by region and status; names are unique (409)", async () => {
    const admin = await signInAdmin();
    const active = await createGateway(admin);
    const draining = await createGateway(admin, "draining");
    const byRegion = await get(`/gateways?regionId=${active.regionId}`, admin.token);
    expect(byRegion.body.items.map((g: { id: string }) => g.id)).toEqual([active.id]);
    const byStatus = await get("/gateways?status=draining", admin.token);
    expect(byStatus.body.items.map((g: { id: string }) => g.id)).toContain(draining.id);
    expect(byStatus.body.items.every((g: { status: string }) => g.status === "draining")).toBe(true);
    const name = (await get(`/gateways/${active.id}`, admin.token)).body.name;
    expect((await post("/gateways", { regionId: active.regionId, name }, admin.token)).status).toBe(409);
    expect((await post("/gateways", { regionId: "reg_missing", name: unique("gw") }, admin.token)).status).toBe(400);
  });

  it("shows the networks a gateway serves, but only those the caller can see", async () => {
    const admin = await signInAdmin();
    const { network, hops: [node] } = await gatewayNetwork(admin, 1);
    const gatewayId = (await get(`/nodes/${node!.id}`, admin.token)).body.gatewayId;
    expect((await get(`/gateways/${gatewayId}`, admin.token)).body.networks).toEqual([{ networkId: network.id, nodeId: node!.id }]);
    const outsider = await createUser(admin);
    expect((await get(`/gateways/${gatewayId}`, outsider.token)).body.networks).toEqual([]);
  });

  it("refuses to delete what is still referenced (409)", async () => {
    const admin = await signInAdmin();
    const { hops: [node] } = await gatewayNetwork(admin, 1);
    const gatewayId = (await get(`/nodes/${node!.id}`, admin.token)).body.gatewayId;
    const regionId = (await get(`/gateways/${gatewayId}`, admin.token)).body.regionId;
    expect((await del(`/gateways/${gatewayId}`, admin.token)).status).toBe(409);
    expect((await del(`/regions/${regionId}`, admin.token)).status).toBe(409);
    await del(`/nodes/${node!.id}`, admin.token);
    expect((await del(`/gateways/${gatewayId}`, admin.token)).status).toBe(204);
    expect((await del(`/regions/${regionId}`, admin.token)).status).toBe(204);
  });
});
