import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { patch, post } from "../helpers/api";
import { expectError, expectUnchanged } from "../helpers/expect-error";
import {
  assignGateway,
  createGateway,
  createGroup,
  createNetwork,
  createNode,
  createUser,
  fakePublicKey,
  type Session,
  signInAdmin,
  unique,
} from "../helpers/factories";
import { rowsOf } from "../helpers/state";

/**
 * Issue 24: an ordinary user made their own group and network, put a gateway node on another group's
 * inventory gateway and routed that tenant's LAN through it. Gateways are now assigned to groups by
 * platform admins, and a range routed out at a shared gateway belongs to one network.
 */
const state = rowsOf("nodes", "routing_policies", "gateway_pools", "gateway_assignments");

/** Group A (the platform admin's tenant) with a gateway node on `gateway`, routing its LAN out there. */
async function tenantA(admin: Session, lan = "192.168.50.0/24") {
  const gateway = await createGateway(admin);
  const group = await createGroup(admin);
  const network = await createNetwork(admin, group.id);
  const hop = await createNode(admin, network.id, { gatewayId: gateway.id, endpoint: "198.51.100.7:51820" });
  const policy = await post(
    `/networks/${network.id}/routing-policies`,
    { name: unique("lan"), type: "via_gateway", destinationCidr: lan, gatewayPath: [hop.id] },
    admin.token,
  );
  expect(policy.status, policy.text).toBe(201);
  return { gateway, group, network, hop };
}

/** An ordinary user who owns group B and its network (not a platform admin). */
async function tenantB(admin: Session) {
  const owner = await createUser(admin);
  const group = await createGroup(owner);
  const network = await createNetwork(owner, group.id);
  return { owner, group, network };
}

const gatewayNodeBody = (networkId: string, gatewayId: string) => ({
  networkId,
  name: unique("gw"),
  publicKey: fakePublicKey(),
  roles: ["gateway"],
  gatewayId,
});

describe("which groups may use which inventory gateway", () => {
  it("a group owner cannot put a node on, or move a node onto, another group's gateway (400 naming it)", async () => {
    const admin = await signInAdmin();
    const a = await tenantA(admin);
    const b = await tenantB(admin);
    const refused = await expectUnchanged(state, () => post("/nodes", gatewayNodeBody(b.network.id, a.gateway.id), b.owner.token));
    expectError(refused, 400, "validation_error");
    expect(refused.body.error.message).toContain(a.gateway.id);
    expect(refused.body.error.message).toContain("not assigned to this network's group");

    const plain = await createNode(b.owner, b.network.id);
    const moved = await expectUnchanged(state, () =>
      patch(`/nodes/${plain.id}`, { roles: ["gateway"], gatewayId: a.gateway.id }, b.owner.token),
    );
    expectError(moved, 400, "validation_error");
    expect(moved.body.error.message).toContain(a.gateway.id);

    // Once a platform admin assigns it, the same owner may.
    await assignGateway(admin, b.group.id, { gatewayId: a.gateway.id });
    expect((await post("/nodes", gatewayNodeBody(b.network.id, a.gateway.id), b.owner.token)).status).toBe(201);
  });

  it("a group owner's own gateway is refused too until assigned; a platform admin placing a node assigns it", async () => {
    const admin = await signInAdmin();
    const b = await tenantB(admin);
    const fresh = await createGateway(admin);
    expectError(await post("/nodes", gatewayNodeBody(b.network.id, fresh.id), b.owner.token), 400, "validation_error");
    const placed = await post("/nodes", gatewayNodeBody(b.network.id, fresh.id), admin.token);
    expect(placed.status, placed.text).toBe(201);
    const rows = await env.DB.prepare("SELECT group_id, gateway_id, created_by FROM gateway_assignments WHERE gateway_id = ?")
      .bind(fresh.id)
      .all();
    expect(rows.results).toEqual([{ group_id: b.group.id, gateway_id: fresh.id, created_by: admin.userId }]);
    const audit = await env.DB.prepare("SELECT actor_id FROM audit_events WHERE group_id = ? AND resource_id LIKE 'gwa_%'")
      .bind(b.group.id)
      .all();
    expect(audit.results).toEqual([{ actor_id: admin.userId }]);
    expect((await post("/nodes", gatewayNodeBody(b.network.id, fresh.id), b.owner.token)).status).toBe(201);
  });

  it("a node on a gateway no longer assigned cannot be named in a pool or a path (400 naming the gateway)", async () => {
    const admin = await signInAdmin();
    const b = await tenantB(admin);
    const gateway = await createGateway(admin);
    await assignGateway(admin, b.group.id, { gatewayId: gateway.id });
    const hop = await createNode(b.owner, b.network.id, { gatewayId: gateway.id, endpoint: "198.51.100.9:51820" });
    // A state the API never leaves (withdrawal is refused while the node runs there; docs/identity.md), as a
    // restored backup could: the writer and the batch must still refuse to route through it.
    await env.DB.prepare("DELETE FROM gateway_assignments WHERE group_id = ?").bind(b.group.id).run();
    const path = await expectUnchanged(state, () =>
      post(
        `/networks/${b.network.id}/routing-policies`,
        { name: unique("p"), type: "via_gateway", destinationCidr: "172.31.0.0/16", gatewayPath: [hop.id] },
        b.owner.token,
      ),
    );
    expectError(path, 400, "validation_error");
    expect(path.body.error.message).toBe(
      `gatewayPath.0 (${hop.id}) runs on gateway ${gateway.id}, which is not assigned to this network's group`,
    );
    const pool = await expectUnchanged(state, () =>
      post(`/networks/${b.network.id}/gateway-pools`, { name: unique("pool"), members: [{ nodeId: hop.id, priority: 1 }] }, b.owner.token),
    );
    expectError(pool, 400, "validation_error");
    expect(pool.body.error.message).toBe(
      `members.0 (${hop.id}) runs on gateway ${gateway.id}, which is not assigned to this network's group`,
    );
  });

  it("a range another network routes out at a shared gateway cannot be routed out there again (400, the other network unnamed)", async () => {
    const admin = await signInAdmin();
    const a = await tenantA(admin, "192.168.60.0/24");
    const b = await tenantB(admin);
    await assignGateway(admin, b.group.id, { gatewayId: a.gateway.id });
    const hop = await createNode(b.owner, b.network.id, { gatewayId: a.gateway.id, endpoint: "198.51.100.8:51820" });
    const route = (destinationCidr: string) =>
      post(
        `/networks/${b.network.id}/routing-policies`,
        { name: unique("p"), type: "via_gateway", destinationCidr, gatewayPath: [hop.id] },
        b.owner.token,
      );
    for (const overlapping of ["192.168.60.0/24", "192.168.60.128/25", "192.168.0.0/16"]) {
      const refused = await expectUnchanged(state, () => route(overlapping));
      expectError(refused, 400, "validation_error");
      expect(refused.body.error.message).toContain(a.gateway.id);
      expect(refused.body.error.message).toContain("another network");
      expect(refused.body.error.message).not.toContain(a.network.id);
      expect(refused.body.error.message).not.toContain(a.group.id);
    }
    expect((await route("192.168.61.0/24")).status).toBe(201);

    // Moving an egress node onto the shared gateway claims its policy's range there too.
    const elsewhere = await createGateway(admin);
    await assignGateway(admin, b.group.id, { gatewayId: elsewhere.id });
    const other = await createNode(b.owner, b.network.id, { gatewayId: elsewhere.id, endpoint: "198.51.100.10:51820" });
    const policy = await post(
      `/networks/${b.network.id}/routing-policies`,
      { name: unique("p"), type: "via_gateway", destinationCidr: "192.168.60.0/26", gatewayPath: [other.id] },
      b.owner.token,
    );
    expect(policy.status, policy.text).toBe(201);
    const moved = await expectUnchanged(state, () => patch(`/nodes/${other.id}`, { gatewayId: a.gateway.id }, b.owner.token));
    expectError(moved, 400, "validation_error");
    expect(moved.body.error.message).toContain(a.gateway.id);
  });
});
