import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, del, get, post } from "../helpers/api";
import { expectError, expectUnchanged } from "../helpers/expect-error";
import { addMember, assignGateway, createGroup, createNetwork, createUser, fakePublicKey, signInAdmin, unique } from "../helpers/factories";
import { rowsOf } from "../helpers/state";

const assignments = rowsOf("gateway_assignments", "nodes");
const path = (groupId: string) => `/groups/${groupId}/gateway-assignments`;

async function regionWithGateway(token: string) {
  const region = await post("/regions", { name: unique("region") }, token);
  const gateway = await post("/gateways", { regionId: region.body.id, name: unique("gw") }, token);
  return { region: region.body as { id: string }, gateway: gateway.body as { id: string } };
}

const gatewayNode = (networkId: string, gatewayId: string, token: string) =>
  post("/nodes", { networkId, name: unique("gw"), publicKey: fakePublicKey(), roles: ["gateway"], gatewayId }, token);

describe("gateway assignments: /groups/{id}/gateway-assignments", () => {
  it("platform admins assign and withdraw; members read their group's (403 on writes); others get 404", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const viewer = await createUser(admin);
    const stranger = await createUser(admin);
    const group = await createGroup(owner);
    await addMember(group.id, viewer, "viewer");
    const { gateway } = await regionWithGateway(admin.token);

    expectError(await expectUnchanged(assignments, () => post(path(group.id), { gatewayId: gateway.id }, owner.token)), 403, "forbidden");
    expectError(await post(path(group.id), { gatewayId: gateway.id }, stranger.token), 404, "not_found");
    expectError(await get(path(group.id), stranger.token), 404, "not_found");

    const created = await assignGateway(admin, group.id, { gatewayId: gateway.id });
    expect(created).toMatchObject({ groupId: group.id, gatewayId: gateway.id, regionId: null, createdBy: admin.userId });
    expect(created.id).toMatch(/^gwa_/);
    for (const reader of [owner, viewer, admin]) {
      const page = await get(path(group.id), reader.token);
      expect(page.status, page.text).toBe(200);
      expect(page.body.items).toEqual([created]);
    }
    expectError(await post(path(group.id), { gatewayId: gateway.id }, admin.token), 409, "conflict");
    expectError(await post(path(group.id), { gatewayId: "gw_nope" }, admin.token), 400, "validation_error");
    expectError(await post(path(group.id), { regionId: "reg_nope" }, admin.token), 400, "validation_error");
    expectError(await post(path(group.id), { gatewayId: gateway.id, regionId: "reg_x" }, admin.token), 422, "VALIDATION_ERROR");

    expectError(await del(`${path(group.id)}/${created.id}`, owner.token), 403, "forbidden");
    expectError(await del(`${path(group.id)}/${created.id}`, stranger.token), 404, "not_found");
    expect((await del(`${path(group.id)}/${created.id}`, admin.token)).status).toBe(204);
    expect((await get(path(group.id), owner.token)).body.items).toEqual([]);
    expectError(await del(`${path(group.id)}/${created.id}`, admin.token), 404, "not_found");

    // Both writes left an audit row naming the assignment and its group.
    const audit = await env.DB.prepare("SELECT method, group_id, status FROM audit_events WHERE resource_id = ? ORDER BY created_at")
      .bind(created.id)
      .all();
    expect(audit.results).toEqual([
      { method: "POST", group_id: group.id, status: 201 },
      { method: "DELETE", group_id: group.id, status: 204 },
    ]);
  });

  it("a region assignment makes every gateway of the region eligible, also one added later", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    const network = await createNetwork(owner, group.id);
    const { region, gateway } = await regionWithGateway(admin.token);
    const other = await regionWithGateway(admin.token);
    expectError(await gatewayNode(network.id, gateway.id, owner.token), 400, "validation_error");
    await assignGateway(admin, group.id, { regionId: region.id });
    expect((await gatewayNode(network.id, gateway.id, owner.token)).status).toBe(201);
    const later = await post("/gateways", { regionId: region.id, name: unique("gw") }, admin.token);
    expect((await gatewayNode(network.id, later.body.id, owner.token)).status).toBe(201);
    expectError(await gatewayNode(network.id, other.gateway.id, owner.token), 400, "validation_error");
  });

  it("withdrawing an assignment a gateway node depends on is 409 naming the node; another assignment covering it lets it go", async () => {
    const admin = await signInAdmin();
    const owner = await createUser(admin);
    const group = await createGroup(owner);
    const network = await createNetwork(owner, group.id);
    const { region, gateway } = await regionWithGateway(admin.token);
    const direct = await assignGateway(admin, group.id, { gatewayId: gateway.id });
    const node = await gatewayNode(network.id, gateway.id, owner.token);
    const refused = await expectUnchanged(assignments, () => del(`${path(group.id)}/${direct.id}`, admin.token));
    expectError(refused, 409, "conflict");
    expect(refused.body.error.message).toContain(node.body.id);
    expect(refused.body.error.message).toContain(gateway.id);
    const byRegion = await assignGateway(admin, group.id, { regionId: region.id });
    expect((await del(`${path(group.id)}/${direct.id}`, admin.token)).status).toBe(204);
    expectError(await del(`${path(group.id)}/${byRegion.id}`, admin.token), 409, "conflict");
    expect((await call("DELETE", `/nodes/${node.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await del(`${path(group.id)}/${byRegion.id}`, admin.token)).status).toBe(204);
  });

  it("the upgrade back-fill (migration 0012) assigns every gateway a group's gateway nodes already run on, once", async () => {
    const admin = await signInAdmin();
    const group = await createGroup(admin);
    const network = await createNetwork(admin, group.id);
    const { gateway } = await regionWithGateway(admin.token);
    expect((await gatewayNode(network.id, gateway.id, admin.token)).status).toBe(201);
    expect((await gatewayNode(network.id, gateway.id, admin.token)).status).toBe(201);
    // As before the upgrade: the nodes exist, no assignment does.
    await env.DB.prepare("DELETE FROM gateway_assignments WHERE group_id = ?").bind(group.id).run();
    const migration = env.TEST_MIGRATIONS.find((m: { name: string }) => m.name.startsWith("0012_"));
    const backFill = migration?.queries.find((query: string) => query.includes("INSERT INTO `gateway_assignments`"));
    expect(backFill).toBeDefined();
    for (let run = 0; run < 2; run++) await env.DB.prepare(backFill!).run();
    const rows = await env.DB.prepare("SELECT id, gateway_id, region_id, created_by FROM gateway_assignments WHERE group_id = ?")
      .bind(group.id)
      .all<{ id: string }>();
    expect(rows.results).toEqual([{ id: expect.stringMatching(/^gwa_/), gateway_id: gateway.id, region_id: null, created_by: null }]);
  });
});
