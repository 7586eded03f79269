import { describe, expect, it } from "vitest";
import { json, type Schema } from "../../client/index.ts";
import { api, byId, post } from "../helpers/api";
import { expectError, expectRefused } from "../helpers/expect-error";
import {
  createGateway,
  createNode,
  enrolDevice,
  expectStatus,
  gatewayNetwork,
  networkSetup,
  signInAdmin,
  type Session,
} from "../helpers/factories";
import { rowsOf } from "../helpers/state";

const policy = (gatewayPath: string[], destinationCidr = "192.168.50.0/24", name = "to-lab"): Schema<"RoutingPolicyInput"> => ({
  name,
  type: "via_gateway",
  destinationCidr,
  gatewayPath,
});

/** A refused policy write stores nothing and bumps no revision. */
const policiesAndRevisions = rowsOf("routing_policies", "networks", "nodes");

const createPolicy = (admin: Session, networkId: string, body: Schema<"RoutingPolicyInput">) =>
  api(admin.token).POST("/api/v1/networks/{id}/routing-policies", { ...byId(networkId), body });

describe("routing policies", () => {
  it("create, read, list, replace, delete; each write bumps the routing revision by one", async () => {
    const {
      admin,
      network,
      hops: [g1, g2, g3],
    } = await networkSetup({ gateways: 3 });
    const client = api(admin.token);
    const revision = async () => expectStatus(await client.GET("/api/v1/networks/{id}", byId(network.id)), 200).routingRevision;
    const before = await revision();
    const created = expectStatus(await createPolicy(admin, network.id, policy([g1!.id, g2!.id, g3!.id])), 201);
    expect(created).toMatchObject({ networkId: network.id, type: "via_gateway", destinationCidr: "192.168.50.0/24", revision: before + 1 });
    expect(created.gatewayPath).toEqual([g1!.id, g2!.id, g3!.id]);
    expect(expectStatus(await client.GET("/api/v1/routing-policies/{id}", byId(created.id)), 200)).toEqual(created);
    expect(expectStatus(await client.GET("/api/v1/networks/{id}/routing-policies", byId(network.id)), 200).items).toEqual([created]);
    const replaced = expectStatus(
      await client.PUT("/api/v1/routing-policies/{id}", { ...byId(created.id), body: policy([g3!.id], "0.0.0.0/0", "default") }),
      200,
    );
    expect(replaced).toMatchObject({ name: "default", destinationCidr: "0.0.0.0/0", gatewayPath: [g3!.id], revision: before + 2 });
    expect((await client.DELETE("/api/v1/routing-policies/{id}", byId(created.id))).response.status).toBe(204);
    expectError(await client.GET("/api/v1/routing-policies/{id}", byId(created.id)), 404, "not_found");
    expect(await revision()).toBe(before + 3);
  });

  it("a replacement meets the same rules as a creation (400 naming the hop) and changes nothing when it fails", async () => {
    const {
      admin,
      network,
      hops: [g1, g2],
    } = await networkSetup({ gateways: 2 });
    const plain = await createNode(admin, network.id);
    const created = expectStatus(await createPolicy(admin, network.id, policy([g1!.id])), 201);
    for (const path of [[plain.id], [g1!.id, g1!.id], [g1!.id, g2!.id, plain.id, g1!.id]]) {
      await expectRefused(
        policiesAndRevisions,
        () => api(admin.token).PUT("/api/v1/routing-policies/{id}", { ...byId(created.id), body: policy(path) }),
        400,
        "validation_error",
      );
    }
    expect(expectStatus(await api(admin.token).GET("/api/v1/routing-policies/{id}", byId(created.id)), 200).gatewayPath).toEqual([g1!.id]);
  });

  it("schema failures are 422 with fields[]", async () => {
    const { admin, network } = await networkSetup({ gateways: 1 });
    // Wrong types and values on purpose: sent raw.
    await expectRefused(
      policiesAndRevisions,
      () =>
        post(
          `/networks/${network.id}/routing-policies`,
          { name: "", type: "via_magic", destinationCidr: "192.168.50.1/24", gatewayPath: "gw1" },
          admin.token,
        ),
      422,
      "VALIDATION_ERROR",
      ["destinationCidr", "gatewayPath", "name", "type"],
    );
    await expectRefused(
      policiesAndRevisions,
      () => post(`/networks/${network.id}/routing-policies`, { ...policy(["ok"]), gatewayPath: ["ok", 7] }, admin.token),
      422,
      "VALIDATION_ERROR",
      ["gatewayPath.1"],
    );
  });

  it("every rule of spec part 4 rule 2 is a 400 validation_error naming the hop", async () => {
    const admin = await signInAdmin();
    const {
      network,
      hops: [g1, g2, g3, g4],
    } = await gatewayNetwork(admin, 4);
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
      const refused = await expectRefused(
        policiesAndRevisions,
        () => createPolicy(admin, network.id, policy(path)),
        400,
        "validation_error",
      );
      expect(refused.message, JSON.stringify(path)).toContain(message);
    }
    expect(expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/routing-policies", byId(network.id)), 200).items).toEqual([]);
  });

  it("destinations must fit the network: same family, not inside the overlay (400)", async () => {
    const {
      admin,
      network,
      hops: [g1],
    } = await networkSetup({ gateways: 1, cidr: "10.66.0.0/16" });
    for (const destination of ["10.66.1.0/24", "10.66.0.0/16", "fd00::/64"]) {
      const refused = await expectRefused(
        policiesAndRevisions,
        () => createPolicy(admin, network.id, policy([g1!.id], destination)),
        400,
        "validation_error",
      );
      expect(refused.message).toContain(`destinationCidr ${destination}`);
    }
  });

  it("conflicts with the network's other policies are 409 and store nothing", async () => {
    const {
      admin,
      network,
      hops: [g1, g2],
    } = await networkSetup({ gateways: 2 });
    expectStatus(await createPolicy(admin, network.id, policy([g1!.id, g2!.id], "192.168.60.0/24", "a")), 201);
    await expectRefused(
      policiesAndRevisions,
      () => createPolicy(admin, network.id, policy([g2!.id], "192.168.60.0/24", "b")),
      409,
      "conflict",
    );
    const secondPredecessor = await expectRefused(
      policiesAndRevisions,
      () => createPolicy(admin, network.id, policy([g2!.id], "192.168.61.0/24", "c")),
      409,
      "conflict",
    );
    expect(secondPredecessor.message).toContain(g2!.id);
    await expectRefused(
      policiesAndRevisions,
      () => createPolicy(admin, network.id, policy([g1!.id], "192.168.62.0/24", "a")),
      409,
      "conflict",
    );
    expectStatus(await createPolicy(admin, network.id, policy([g1!.id], "192.168.63.0/24", "d")), 201);
    expect(expectStatus(await api(admin.token).GET("/api/v1/networks/{id}/routing-policies", byId(network.id)), 200).items).toHaveLength(2);
  });

  it("a gateway node that a policy uses cannot be deleted or lose its role (409)", async () => {
    const {
      admin,
      network,
      hops: [g1],
    } = await networkSetup({ gateways: 1 });
    expectStatus(await createPolicy(admin, network.id, policy([g1!.id])), 201);
    await expectRefused(policiesAndRevisions, () => api(admin.token).DELETE("/api/v1/nodes/{id}", byId(g1!.id)), 409, "conflict");
    await expectRefused(
      policiesAndRevisions,
      () => api(admin.token).PATCH("/api/v1/nodes/{id}", { ...byId(g1!.id), body: { roles: [] } }),
      409,
      "conflict",
    );
  });

  it("the config of each node carries its routingIntent", async () => {
    const {
      admin,
      network,
      hops: [g1, g2],
    } = await networkSetup({ gateways: 2 });
    const laptop = await createNode(admin, network.id, { name: "laptop" });
    const created = expectStatus(await createPolicy(admin, network.id, policy([g1!.id, g2!.id])), 201);
    const intent = async (nodeId: string) =>
      json(expectStatus(await api(admin.token).GET("/api/v1/nodes/{id}/config", byId(nodeId)), 200)).routingIntent;
    const base = { policyId: created.id, name: "to-lab", destinationCidr: "192.168.50.0/24", path: [g1!.id, g2!.id] };
    expect(await intent(laptop.id)).toEqual([{ ...base, role: "source", previousHop: null, nextHop: g1!.id }]);
    expect(await intent(g1!.id)).toEqual([{ ...base, role: "transit", previousHop: null, nextHop: g2!.id }]);
    expect(await intent(g2!.id)).toEqual([{ ...base, role: "egress", previousHop: g1!.id, nextHop: null }]);
  });
});

describe("routing policies and device preferences", () => {
  it("deleting a policy removes it from devices' 'only' preferences", async () => {
    const {
      admin,
      network,
      hops: [gw],
    } = await networkSetup({ gateways: 1 });
    const client = api(admin.token);
    const created = expectStatus(
      await client.POST("/api/v1/networks/{id}/routing-policies", {
        ...byId(network.id),
        body: { name: "a", type: "via_gateway", destinationCidr: "192.168.40.0/24", gatewayPath: [gw!.id] },
      }),
      201,
    );
    const device = await enrolDevice(admin, { networkId: network.id });
    expectStatus(
      await client.PUT("/api/v1/devices/{id}/routing-preferences", {
        ...byId(device.deviceId),
        body: { mode: "only", policyIds: [created.id] },
      }),
      200,
    );
    expect((await client.DELETE("/api/v1/routing-policies/{id}", byId(created.id))).response.status).toBe(204);
    const preference = expectStatus(await client.GET("/api/v1/devices/{id}/routing-preferences", byId(device.deviceId)), 200);
    expect(preference).toEqual({ mode: "only", policyIds: [] });
    expectStatus(await client.PUT("/api/v1/devices/{id}/routing-preferences", { ...byId(device.deviceId), body: preference }), 200);
  });
});
