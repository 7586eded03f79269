import { describe, expect, it } from "vitest";
import { del, get, patch, post, put } from "../helpers/api";
import { createGateway, createNode, gatewayNetwork, signInAdmin } from "../helpers/factories";

const policy = (gatewayPath: string[], destinationCidr = "192.168.50.0/24", name = "to-lab") =>
  ({ name, type: "via_gateway", destinationCidr, gatewayPath });

describe("routing policies", () => {
  it("create, read, list, replace, delete; each write bumps the routing revision by one", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1, g2, g3] } = await gatewayNetwork(admin, 3);
    const before = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision;
    const created = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id, g2!.id, g3!.id]), admin.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ networkId: network.id, type: "via_gateway", destinationCidr: "192.168.50.0/24", revision: before + 1 });
    expect(created.body.gatewayPath).toEqual([g1!.id, g2!.id, g3!.id]);
    expect((await get(`/routing-policies/${created.body.id}`, admin.token)).body).toEqual(created.body);
    expect((await get(`/networks/${network.id}/routing-policies`, admin.token)).body.items).toEqual([created.body]);
    const replaced = await put(`/routing-policies/${created.body.id}`, policy([g3!.id], "0.0.0.0/0", "default"), admin.token);
    expect(replaced.body).toMatchObject({ name: "default", destinationCidr: "0.0.0.0/0", gatewayPath: [g3!.id], revision: before + 2 });
    expect((await del(`/routing-policies/${created.body.id}`, admin.token)).status).toBe(204);
    expect((await get(`/routing-policies/${created.body.id}`, admin.token)).status).toBe(404);
    expect((await get(`/networks/${network.id}`, admin.token)).body.routingRevision).toBe(before + 3);
  });

  it("a replacement meets the same rules as a creation (400 naming the hop) and changes nothing when it fails", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1, g2] } = await gatewayNetwork(admin, 2);
    const plain = await createNode(admin, network.id);
    const created = (await post(`/networks/${network.id}/routing-policies`, policy([g1!.id]), admin.token)).body;
    const revision = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision;
    for (const path of [[plain.id], [g1!.id, g1!.id], [g1!.id, g2!.id, plain.id, g1!.id]]) {
      const refused = await put(`/routing-policies/${created.id}`, policy(path), admin.token);
      expect(refused.status, JSON.stringify(path)).toBe(400);
      expect(refused.body.error.code).toBe("validation_error");
    }
    expect((await get(`/routing-policies/${created.id}`, admin.token)).body.gatewayPath).toEqual([g1!.id]);
    expect((await get(`/networks/${network.id}`, admin.token)).body.routingRevision).toBe(revision);
  });

  it("schema failures are 422 with fields[]", async () => {
    const admin = await signInAdmin();
    const { network } = await gatewayNetwork(admin, 1);
    const response = await post(`/networks/${network.id}/routing-policies`,
      { name: "", type: "via_magic", destinationCidr: "192.168.50.1/24", gatewayPath: "gw1" }, admin.token);
    expect(response.status).toBe(422);
    expect(response.body.error.fields.map((f: { path: string }) => f.path).sort()).toEqual(["destinationCidr", "gatewayPath", "name", "type"]);
    const badEntry = await post(`/networks/${network.id}/routing-policies`, policy(["ok", 7 as unknown as string]), admin.token);
    expect(badEntry.body.error.fields[0].path).toBe("gatewayPath.1");
  });

  it("every rule of spec part 4 rule 2 is a 400 validation_error naming the hop", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1, g2, g3, g4] } = await gatewayNetwork(admin, 4);
    const plain = await createNode(admin, network.id, { name: "laptop" });
    const disabled = await createGateway(admin, "disabled");
    const parked = await createNode(admin, network.id, { name: "parked", gatewayId: disabled.id });
    const other = await gatewayNetwork(admin, 1);
    const cases: [string[], string][] = [
      [[], "at least one"],
      [[g1!.id, g2!.id, g3!.id, g4!.id], "at most 3"],
      [[g1!.id, g2!.id, g1!.id], `gatewayPath.2 (${g1!.id}) repeats`],
      [[g1!.id, "node_missing"], "gatewayPath.1 (node_missing) is not a node of this network"],
      [[other.hops[0]!.id], "is not a node of this network"],
      [[g1!.id, plain.id], `gatewayPath.1 (${plain.id}) does not hold the gateway role`],
      [[parked.id], "disabled and not eligible"],
    ];
    for (const [path, message] of cases) {
      const response = await post(`/networks/${network.id}/routing-policies`, policy(path), admin.token);
      expect(response.status, JSON.stringify(path)).toBe(400);
      expect(response.body.error.code).toBe("validation_error");
      expect(response.body.error.message).toContain(message);
    }
    expect((await get(`/networks/${network.id}/routing-policies`, admin.token)).body.items).toEqual([]);
  });

  it("destinations must fit the network: same family, not inside the overlay (400)", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1] } = await gatewayNetwork(admin, 1, "10.66.0.0/16");
    for (const destination of ["10.66.1.0/24", "10.66.0.0/16", "fd00::/64"]) {
      const response = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id], destination), admin.token);
      expect(response.status, destination).toBe(400);
      expect(response.body.error.message).toContain(`destinationCidr ${destination}`);
    }
  });

  it("conflicts with the network's other policies are 409 and store nothing", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1, g2] } = await gatewayNetwork(admin, 2);
    const first = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id, g2!.id], "192.168.60.0/24", "a"), admin.token);
    expect(first.status).toBe(201);
    const sameDestination = await post(`/networks/${network.id}/routing-policies`, policy([g2!.id], "192.168.60.0/24", "b"), admin.token);
    expect(sameDestination.status).toBe(409);
    const secondPredecessor = await post(`/networks/${network.id}/routing-policies`, policy([g2!.id], "192.168.61.0/24", "c"), admin.token);
    expect(secondPredecessor.status).toBe(409);
    expect(secondPredecessor.body.error.message).toContain(g2!.id);
    const sameName = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id], "192.168.62.0/24", "a"), admin.token);
    expect(sameName.status).toBe(409);
    const shared = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id], "192.168.63.0/24", "d"), admin.token);
    expect(shared.status).toBe(201);
    expect((await get(`/networks/${network.id}/routing-policies`, admin.token)).body.items).toHaveLength(2);
  });

  it("a gateway node that a policy uses cannot be deleted or lose its role (409)", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1] } = await gatewayNetwork(admin, 1);
    await post(`/networks/${network.id}/routing-policies`, policy([g1!.id]), admin.token);
    expect((await del(`/nodes/${g1!.id}`, admin.token)).status).toBe(409);
    expect((await patch(`/nodes/${g1!.id}`, { roles: [] }, admin.token)).status).toBe(409);
  });

  it("the config of each node carries its routingIntent", async () => {
    const admin = await signInAdmin();
    const { network, hops: [g1, g2] } = await gatewayNetwork(admin, 2);
    const laptop = await createNode(admin, network.id, { name: "laptop" });
    const created = await post(`/networks/${network.id}/routing-policies`, policy([g1!.id, g2!.id]), admin.token);
    const intent = async (nodeId: string) => (await get(`/nodes/${nodeId}/config`, admin.token)).body.routingIntent;
    const base = { policyId: created.body.id, name: "to-lab", destinationCidr: "192.168.50.0/24", path: [g1!.id, g2!.id] };
    expect(await intent(laptop.id)).toEqual([{ ...base, role: "source", previousHop: null, nextHop: g1!.id }]);
    expect(await intent(g1!.id)).toEqual([{ ...base, role: "transit", previousHop: null, nextHop: g2!.id }]);
    expect(await intent(g2!.id)).toEqual([{ ...base, role: "egress", previousHop: g1!.id, nextHop: null }]);
  });
});
