import { describe, expect, it } from "vitest";
import { call, get } from "../helpers/api";
import { addMember, createUser, fakePublicKey, gatewayNetwork, signInAdmin } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";

async function aliceWithPolicy() {
  const admin = await signInAdmin();
  const alice = await createUser(admin);
  const bob = await createUser(admin);
  const {
    group,
    network,
    hops: [gw],
  } = await gatewayNetwork(admin, 1);
  await addMember(group.id, alice, "owner");
  const policy = await call("POST", `/networks/${network.id}/routing-policies`, {
    token: alice.token,
    body: { name: "p", type: "via_gateway", destinationCidr: "192.168.7.0/24", gatewayPath: [gw!.id] },
  });
  return { admin, alice, bob, group, network, gw: gw!, policyId: policy.body.id as string };
}

describe("cross-tenant isolation of nodes and policies", () => {
  it.each([
    ["GET", "/nodes/:node"],
    ["PATCH", "/nodes/:node"],
    ["DELETE", "/nodes/:node"],
    ["GET", "/nodes/:node/config"],
    ["GET", "/routing-policies/:policy"],
    ["PUT", "/routing-policies/:policy"],
    ["DELETE", "/routing-policies/:policy"],
    ["GET", "/networks/:network/routing-policies"],
    ["POST", "/networks/:network/routing-policies"],
    ["GET", "/networks/:network/runtime-status"],
    ["POST", "/nodes"],
  ] as const)("%s %s of another tenant answers 404", async (method, template) => {
    const { bob, alice, network, gw, policyId } = await aliceWithPolicy();
    const path = template.replace(":node", gw.id).replace(":policy", policyId).replace(":network", network.id);
    const bodies: Record<string, unknown> = {
      PATCH: { name: "stolen" },
      PUT: { name: "x", type: "via_gateway", destinationCidr: "192.168.8.0/24", gatewayPath: [gw.id] },
      POST:
        template === "/nodes"
          ? { networkId: network.id, name: "intruder", publicKey: fakePublicKey() }
          : { name: "x", type: "via_gateway", destinationCidr: "192.168.9.0/24", gatewayPath: [gw.id] },
    };
    const response = await call(method, path, { token: bob.token, body: bodies[method] });
    expectError(response, 404, "not_found");
    expect((await get(`/routing-policies/${policyId}`, alice.token)).body.name).toBe("p");
    expect((await get(`/nodes?networkId=${network.id}`, alice.token)).body.items).toHaveLength(1);
  });

  it("a viewer of the group reads nodes, policies and configs but may not change them (403)", async () => {
    const { admin, group, network, gw, policyId } = await aliceWithPolicy();
    const viewer = await createUser(admin);
    await addMember(group.id, viewer, "viewer");
    expect((await get(`/nodes/${gw.id}/config`, viewer.token)).status).toBe(200);
    expect((await get(`/networks/${network.id}/runtime-status`, viewer.token)).status).toBe(200);
    expectError(await call("DELETE", `/routing-policies/${policyId}`, { token: viewer.token }), 403, "forbidden");
    expectError(await call("PATCH", `/nodes/${gw.id}`, { token: viewer.token, body: { endpoint: "203.0.113.9:1" } }), 403, "forbidden");
    expect((await get(`/nodes?networkId=${network.id}`, (await createUser(admin)).token)).body.items).toEqual([]);
  });
});
