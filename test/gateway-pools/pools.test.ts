// Gateway pools: the resource a gatewayPath may name as one hop (docs/routing.md, "Gateway pools and failover").
// Writes, and every rule that refuses what cannot route, each naming the member or hop.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { del, get, patch, post } from "../helpers/api";
import { expectError, expectRefused } from "../helpers/expect-error";
import { createGateway, createNode, fakePublicKey, unique } from "../helpers/factories";
import { rowsOf } from "../helpers/state";
import { createPolicy, createPool, poolNetwork } from "./support";

const poolsOf = async (networkId: string) =>
  (await env.DB.prepare("SELECT * FROM gateway_pools WHERE network_id = ? ORDER BY id").bind(networkId).all()).results;

describe("gateway pools", () => {
  it("are created, read, listed, changed and deleted; the preferred member starts active; every write bumps the routing revision", async () => {
    const { admin, network, gw1, gw2 } = await poolNetwork();
    const before = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision;
    const created = await post(
      `/networks/${network.id}/gateway-pools`,
      {
        name: "edge",
        members: [
          { nodeId: gw2.id, priority: 20 },
          { nodeId: gw1.id, priority: 10 },
        ],
      },
      admin.token,
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^gpl_/),
      networkId: network.id,
      name: "edge",
      preempt: false,
      activeNodeId: gw1.id,
      lastFailover: null,
      members: [
        {
          nodeId: gw1.id,
          priority: 10,
          drained: false,
          healthy: false,
          health: { reason: "stale report", lastSeenAt: null, probeFailStreak: 0 },
        },
        { nodeId: gw2.id, priority: 20, drained: false, healthy: false },
      ],
    });
    const id = created.body.id;
    expect((await get(`/networks/${network.id}`, admin.token)).body.routingRevision).toBe(before + 1);
    expect((await get(`/gateway-pools/${id}`, admin.token)).body).toEqual(created.body);
    expect((await get(`/networks/${network.id}/gateway-pools`, admin.token)).body.items.map((pool: { id: string }) => pool.id)).toEqual([
      id,
    ]);

    // PATCH replaces what it names; the active member left, so the preferred one of the new list takes over.
    const changed = await patch(
      `/gateway-pools/${id}`,
      { name: "edge-2", members: [{ nodeId: gw2.id, priority: 1 }], preempt: true },
      admin.token,
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ name: "edge-2", preempt: true, activeNodeId: gw2.id, members: [{ nodeId: gw2.id, priority: 1 }] });

    expect((await del(`/gateway-pools/${id}`, admin.token)).status).toBe(204);
    expectError(await get(`/gateway-pools/${id}`, admin.token), 404, "not_found");
    expect(await poolsOf(network.id)).toEqual([]);
  });

  it("refuse members that cannot be a hop (400 naming the member), a node in two pools or named directly by a policy (409)", async () => {
    const { admin, network, gw1, gw2, gw3 } = await poolNetwork();
    const pools = rowsOf("nodes", "networks");
    const plain = await createNode(admin, network.id);
    const disabledInventory = await createGateway(admin, "disabled");
    const offDuty = await createNode(admin, network.id, { gatewayId: disabledInventory.id });
    const create = (members: { nodeId: string; priority: number }[]) =>
      post(`/networks/${network.id}/gateway-pools`, { name: unique("pool"), members }, admin.token);

    const cases: [{ nodeId: string; priority: number }[], RegExp][] = [
      [
        [
          { nodeId: gw1.id, priority: 1 },
          { nodeId: "node_missing", priority: 2 },
        ],
        /members\.1 \(node_missing\) is not a node of this network/,
      ],
      [[{ nodeId: plain.id, priority: 1 }], new RegExp(`members\\.0 \\(${plain.id}\\) does not hold the gateway role`)],
      [[{ nodeId: offDuty.id, priority: 1 }], new RegExp(`members\\.0 \\(${offDuty.id}\\) runs on gateway .* disabled and not eligible`)],
      [
        [
          { nodeId: gw1.id, priority: 1 },
          { nodeId: gw1.id, priority: 2 },
        ],
        /members\.1 \(.*\) repeats an earlier member/,
      ],
    ];
    for (const [members, message] of cases) {
      const error = await expectRefused(pools, () => create(members), 400, "validation_error");
      expect(error.message).toMatch(message);
    }
    expect(await poolsOf(network.id)).toEqual([]);

    const first = await createPool(admin.token, network.id, [{ nodeId: gw1.id, priority: 1 }]);
    const twice = expectError(
      await create([
        { nodeId: gw2.id, priority: 1 },
        { nodeId: gw1.id, priority: 2 },
      ]),
      409,
      "conflict",
    );
    expect(twice.message).toContain(`Node ${gw1.id} is already a member of gateway pool ${first.id}`);
    // The same node again in its own pool's PATCH is fine.
    expect((await patch(`/gateway-pools/${first.id}`, { members: [{ nodeId: gw1.id, priority: 5 }] }, admin.token)).status).toBe(200);

    const policy = await createPolicy(admin.token, network.id, [gw3.id]);
    const named = expectError(await create([{ nodeId: gw3.id, priority: 1 }]), 409, "conflict");
    expect(named.message).toContain(`Node ${gw3.id} is a hop of routing policies ${policy.id}`);

    // Schema limits: 1-8 members (422).
    expectError(await create([]), 422, "VALIDATION_ERROR", ["members"]);
    const nine = Array.from({ length: 9 }, (_, i) => ({ nodeId: `node_${i}`, priority: i }));
    expectError(await create(nine), 422, "VALIDATION_ERROR", ["members"]);
    // Names are unique in a network.
    const pool = await poolsOf(network.id);
    expectError(
      await post(`/networks/${network.id}/gateway-pools`, { name: pool[0]!.name, members: [{ nodeId: gw2.id, priority: 1 }] }, admin.token),
      409,
      "conflict",
    );
  });

  it("hold at most 100 a network (409)", async () => {
    const { admin, network, gw1 } = await poolNetwork();
    const now = new Date().toISOString();
    // 100 pools written straight into D1 (with the revision bump a write carries, so the writer reloads).
    const insert = env.DB.prepare(
      "INSERT INTO gateway_pools (id, network_id, name, preempt, members, active_node_id, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?)",
    );
    await env.DB.batch([
      ...Array.from({ length: 100 }, (_, i) =>
        insert.bind(
          `gpl_fill${i}`,
          network.id,
          `fill-${i}`,
          JSON.stringify([{ nodeId: `node_fill${i}`, priority: 0, drained: false }]),
          `node_fill${i}`,
          now,
          now,
        ),
      ),
      env.DB.prepare("UPDATE networks SET routing_revision = routing_revision + 1 WHERE id = ?").bind(network.id),
    ]);
    const refused = expectError(
      await post(`/networks/${network.id}/gateway-pools`, { name: "one-more", members: [{ nodeId: gw1.id, priority: 1 }] }, admin.token),
      409,
      "conflict",
    );
    expect(refused.message).toContain("at most 100 gateway pools");
  });

  it("are one hop of a path: members are named only through their pool, a pool counts as one hop, and the forest rule holds on pools", async () => {
    const { admin, network, gw1, gw2, gw3, gw4 } = await poolNetwork();
    const pool = await createPool(admin.token, network.id, [
      { nodeId: gw2.id, priority: 1 },
      { nodeId: gw3.id, priority: 2 },
    ]);
    const state = rowsOf("routing_policies", "networks");
    const policy = (gatewayPath: string[], destinationCidr = "172.31.0.0/16") =>
      post(
        `/networks/${network.id}/routing-policies`,
        { name: unique("p"), type: "via_gateway", destinationCidr, gatewayPath },
        admin.token,
      );

    const direct = await expectRefused(state, () => policy([gw1.id, gw3.id]), 400, "validation_error");
    expect(direct.message).toBe(`gatewayPath.1 (${gw3.id}): node ${gw3.id} is a member of pool ${pool.id}; name the pool`);
    const unknown = await expectRefused(state, () => policy([gw1.id, "gpl_nothere"]), 400, "validation_error");
    expect(unknown.message).toBe("gatewayPath.1 (gpl_nothere) is not a gateway pool of this network");
    const repeated = await expectRefused(state, () => policy([pool.id, gw1.id, pool.id]), 400, "validation_error");
    expect(repeated.message).toBe(`gatewayPath.2 (${pool.id}) repeats an earlier hop`);
    // ROUTING_POLICY_MAX_HOPS (3) counts hops: a pool of two is one.
    const tooLong = await expectRefused(state, () => policy([gw1.id, pool.id, gw4.id, "x"]), 400, "validation_error");
    expect(tooLong.message).toContain("gatewayPath has 4 hops");

    // Every member passes the hop rules: an inventory gateway disabled after the pool was written refuses the path.
    const disabled = await patch(`/gateways/${gw3.gatewayId}`, { status: "disabled" }, admin.token);
    expect(disabled.status, disabled.text).toBe(200);
    const ineligible = await expectRefused(state, () => policy([gw1.id, pool.id]), 400, "validation_error");
    expect(ineligible.message).toMatch(
      new RegExp(`^gatewayPath\\.1 \\(${pool.id}\\) member ${gw3.id} runs on gateway .* disabled and not eligible$`),
    );
    expect((await patch(`/gateways/${gw3.gatewayId}`, { status: "active" }, admin.token)).status).toBe(200);

    const created = await policy([gw1.id, pool.id, gw4.id]);
    expect(created.status, created.text).toBe(201);
    expect(created.body.gatewayPath).toEqual([gw1.id, pool.id, gw4.id]);
    // The pool is one gateway to the forest rule: a second predecessor for it is a 409, like for a node.
    const twoParents = await expectRefused(state, () => policy([gw4.id, pool.id], "172.29.0.0/16"), 409, "conflict");
    expect(twoParents.message).toContain(`(${pool.id})`);
    expect(twoParents.message).toContain("a gateway must have a single predecessor");

    // While a policy names it, the pool stays, and its members stay gateways.
    expectError(await del(`/gateway-pools/${pool.id}`, admin.token), 409, "conflict");
    const memberGone = expectError(await del(`/nodes/${gw2.id}`, admin.token), 409, "conflict");
    expect(memberGone.message).toContain(`member of gateway pool ${pool.id}`);
    expectError(await patch(`/nodes/${gw2.id}`, { roles: [], publicKey: fakePublicKey() }, admin.token), 409, "conflict");
    expect((await del(`/routing-policies/${created.body.id}`, admin.token)).status).toBe(204);
    expect((await del(`/gateway-pools/${pool.id}`, admin.token)).status).toBe(204);
  });
});
