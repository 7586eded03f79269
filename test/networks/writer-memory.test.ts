// The network's writer holds the network in memory and applies each committed write to it. These tests
// hold it to that: after every kind of write its copy equals a fresh load from D1, a writer that lost its
// copy (a restart) or was gone around reloads, and a write reads the same D1 rows at any network size.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import type { NetworkMemory } from "../../src/objects/network/memory/network-memory";
import { loadNetworkState, type NetworkState } from "../../src/objects/network/state";
import type { NetworkWriter } from "../../src/objects/network/network-writer";
import { networkWriter } from "../../src/objects/network/client";
import { del, patch, post, put } from "../helpers/api";
import { createGateway, createNode, enrolDevice, fakePublicKey, networkSetup, type Session, unique } from "../helpers/factories";

const durable = networkWriter.bind(null, env);
const memoryOf = (instance: NetworkWriter) => (instance as unknown as { parts: { writes: { memory: NetworkMemory } } }).parts.writes.memory;

/**
 * Heartbeat and report columns are written outside the writer and the network's updatedAt by its bumps: not
 * held. Whose each device is (access selectors) is held and must follow enrolments and removals.
 */
function comparable(state: NetworkState) {
  const { updatedAt: _at, ...network } = state.network;
  const nodes = state.nodes.map(({ lastSeenAt: _s, appliedRoutingRevision: _r, appliedDnsRevision: _d, applyError: _e, ...node }) => node);
  const owners = [...state.owners].sort(([a], [b]) => (a < b ? -1 : 1));
  return { network, nodes, policies: state.policies, records: state.records, pools: state.pools, owners };
}

async function expectHeldEqualsFresh(networkId: string) {
  const held = await runInDurableObject(durable(networkId), async (instance: NetworkWriter) => {
    const memory = memoryOf(instance);
    const copy = (memory as unknown as { held: { state(): NetworkState } | null }).held;
    return copy ? copy.state() : null;
  });
  expect(held, "the writer holds the network after a write").not.toBeNull();
  const fresh = await loadNetworkState(createDb(env.DB), networkId);
  const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
  expect(comparable(held!)).toEqual(
    comparable({
      ...fresh,
      nodes: byId(fresh.nodes),
      policies: byId(fresh.policies),
      records: byId(fresh.records),
      pools: byId(fresh.pools),
    }),
  );
}

const stats = (networkId: string) => networkWriter(env, networkId).stats();

describe("the writer's copy of the network", () => {
  it("equals a fresh load after every kind of write", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 2 });
    const [gw1, gw2] = hops as unknown as [{ id: string }, { id: string }];
    const check = () => expectHeldEqualsFresh(network.id);
    const ok = (status: number, expected: number) => expect(status).toBe(expected);

    const node = await createNode(admin, network.id, { address: network.cidr.replace(/0\/24$/, "77") });
    await check();
    ok((await patch(`/nodes/${node.id}`, { name: unique("renamed"), endpoint: "203.0.113.9:51820" }, admin.token)).status, 200);
    await check();
    ok((await patch(`/nodes/${node.id}`, { address: network.cidr.replace(/0\/24$/, "78") }, admin.token)).status, 200);
    await check();
    const policy = await post(
      `/networks/${network.id}/routing-policies`,
      { name: unique("p"), type: "via_gateway", destinationCidr: "172.20.0.0/16", gatewayPath: [gw1.id, gw2.id] },
      admin.token,
    );
    ok(policy.status, 201);
    await check();
    ok(
      (
        await put(
          `/routing-policies/${policy.body.id}`,
          { name: unique("p"), type: "via_gateway", destinationCidr: "172.21.0.0/16", gatewayPath: [gw1.id] },
          admin.token,
        )
      ).status,
      200,
    );
    await check();
    const device = await enrolDevice(admin, { networkId: network.id });
    await check();
    ok(
      (await put(`/devices/${device.deviceId}/routing-preferences`, { mode: "only", policyIds: [policy.body.id] }, admin.token)).status,
      200,
    );
    await check();
    ok((await patch(`/devices/${device.deviceId}`, { name: unique("laptop") }, admin.token)).status, 200);
    await check();
    // The device chose the policy: deleting it rewrites the device's node in the same batch.
    ok((await del(`/routing-policies/${policy.body.id}`, admin.token)).status, 204);
    await check();
    const record = await post(`/networks/${network.id}/dns/records`, { name: unique("r"), type: "A", value: "192.0.2.1" }, admin.token);
    ok(record.status, 201);
    await check();
    ok((await put(`/dns/records/${record.body.id}`, { name: unique("r"), type: "A", value: "192.0.2.2" }, admin.token)).status, 200);
    await check();
    ok((await del(`/dns/records/${record.body.id}`, admin.token)).status, 204);
    await check();
    ok((await patch(`/networks/${network.id}`, { name: unique("net"), dnsDomain: `${unique("d")}.internal` }, admin.token)).status, 200);
    await check();
    // A gateway node awaiting its agent, the agent's key registration (a write the agent makes, not the admin),
    // a report from it (outside the writer), then an admin change that reads the reported row.
    const inventory = await createGateway(admin);
    const keyless = await post(
      "/nodes",
      { networkId: network.id, name: unique("gw"), roles: ["gateway"], gatewayId: inventory.id },
      admin.token,
    );
    ok(keyless.status, 201);
    await check();
    const issued = await post("/agents/enrolment-tokens", { kind: "gateway-daemon", gatewayId: inventory.id }, admin.token);
    const agent = await post("/agents/enrol", { token: issued.body.token, name: unique("agent"), version: "1.0.0" });
    ok(agent.status, 201);
    const claim = { publicKey: fakePublicKey(), servesDns: true };
    ok((await put(`/agents/me/nodes/${keyless.body.id}`, claim, agent.body.credential)).status, 200);
    await check();
    const report = { nodes: [{ nodeId: keyless.body.id, appliedRoutingRevision: 1, error: "not applied" }] };
    ok((await post("/agents/me/report", report, agent.body.credential)).status, 200);
    ok((await patch(`/nodes/${keyless.body.id}`, { endpoint: "203.0.113.10:51820" }, admin.token)).status, 200);
    await check();
    // A key the agent's own node already holds, from another node of the network: refused, copy unchanged.
    ok((await patch(`/nodes/${hops[0]!.id}`, { publicKey: claim.publicKey }, admin.token)).status, 409);
    await check();
    ok((await del(`/devices/${device.deviceId}`, admin.token)).status, 204);
    await check();
    ok((await del(`/nodes/${node.id}`, admin.token)).status, 204);
    await check();
    // Refused writes leave the copy as it was.
    ok((await del(`/nodes/${gw1.id}`, admin.token)).status, 204);
    await check();
    const taken = await post("/nodes", { networkId: network.id, name: "gw2", publicKey: fakePublicKey() }, admin.token);
    ok(taken.status, 409);
    await check();
    // None of this needed a reload after the first write.
    expect((await stats(network.id)).loads).toBe(1);
  });

  it("equals a fresh load after pool writes, a drain and a failover", async () => {
    const { admin, network, hops } = await networkSetup({ gateways: 3 });
    const [gw1, gw2, gw3] = hops as unknown as [{ id: string }, { id: string }, { id: string }];
    const check = () => expectHeldEqualsFresh(network.id);
    const pool = await post(
      `/networks/${network.id}/gateway-pools`,
      {
        name: unique("pool"),
        members: [
          { nodeId: gw2.id, priority: 1 },
          { nodeId: gw3.id, priority: 2 },
        ],
      },
      admin.token,
    );
    expect(pool.status, pool.text).toBe(201);
    await check();
    const policy = await post(
      `/networks/${network.id}/routing-policies`,
      { name: unique("p"), type: "via_gateway", destinationCidr: "172.22.0.0/16", gatewayPath: [gw1.id, pool.body.id] },
      admin.token,
    );
    expect(policy.status, policy.text).toBe(201);
    await check();
    expect((await patch(`/gateway-pools/${pool.body.id}`, { name: unique("pool") }, admin.token)).status).toBe(200);
    await check();
    // Fresh reports from both members; the drain of the active one fails over (a second write of the pool).
    const seen = new Date().toISOString();
    await env.DB.prepare("UPDATE nodes SET last_seen_at = ? WHERE id IN (?, ?)").bind(seen, gw2.id, gw3.id).run();
    const drained = await post(`/gateway-pools/${pool.body.id}/members/${gw2.id}/drain`, {}, admin.token);
    expect(drained.body.activeNodeId).toBe(gw3.id);
    await check();
    expect((await del(`/routing-policies/${policy.body.id}`, admin.token)).status).toBe(204);
    expect((await del(`/gateway-pools/${pool.body.id}`, admin.token)).status).toBe(204);
    await check();
    expect((await stats(network.id)).loads).toBe(1);
  });

  it("reloads after a restart, and when a change went around it (D1's revision moved)", async () => {
    const { admin, network } = await networkSetup();
    await createNode(admin, network.id);
    const before = (await stats(network.id)).loads;
    // A restart: the object loses its memory.
    await runInDurableObject(durable(network.id), async (instance: NetworkWriter) => memoryOf(instance).forget());
    const second = await createNode(admin, network.id);
    expect((await stats(network.id)).loads).toBe(before + 1);
    await expectHeldEqualsFresh(network.id);
    // Around the writer: a node renamed in D1 directly, with the revision bump a write would carry.
    const renamed = unique("outside");
    await env.DB.batch([
      env.DB.prepare("update nodes set name = ? where id = ?").bind(renamed, second.id),
      env.DB.prepare("update networks set routing_revision = routing_revision + 1 where id = ?").bind(network.id),
    ]);
    const clash = await post("/nodes", { networkId: network.id, name: renamed, publicKey: fakePublicKey() }, admin.token);
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe("conflict");
    expect((await stats(network.id)).loads).toBe(before + 2);
    await expectHeldEqualsFresh(network.id);
    // A refusal the held copy would give is checked against D1 before it is answered: the name freed around
    // the writer is free (writes take the copy without reading the network's row; a batch would assert it).
    await env.DB.batch([
      env.DB.prepare("update nodes set name = ? where id = ?").bind(unique("moved"), second.id),
      env.DB.prepare("update networks set routing_revision = routing_revision + 1 where id = ?").bind(network.id),
    ]);
    const reuse = await post("/nodes", { networkId: network.id, name: renamed, publicKey: fakePublicKey() }, admin.token);
    expect(reuse.status).toBe(201);
    expect((await stats(network.id)).loads).toBe(before + 3);
    await expectHeldEqualsFresh(network.id);
  });
});

async function grow(admin: Session, networkId: string, nodes: number) {
  for (let start = 0; start < nodes; start += 10) {
    await Promise.all(Array.from({ length: Math.min(10, nodes - start) }, () => createNode(admin, networkId)));
  }
}

/** D1 rows read by the writer for one write, as D1 reports them (meta.rows_read). */
async function rowsReadBy(networkId: string, write: () => Promise<{ status: number }>, expected: number) {
  const before = await stats(networkId);
  expect((await write()).status).toBe(expected);
  const after = await stats(networkId);
  return { rowsRead: after.rowsRead - before.rowsRead, loads: after.loads - before.loads };
}

describe("rows read per write", () => {
  // 400 nodes grown through the API: about 10 s alone, more beside other suites on 2 cores (a bound, not a measurement).
  it("do not grow with the network: the same at 5 and at 400 nodes", { timeout: 90_000 }, async () => {
    const small = await networkSetup({ cidr: "10.231.0.0/16" });
    const large = await networkSetup({ cidr: "10.232.0.0/16" });
    await grow(small.admin, small.network.id, 5);
    await grow(large.admin, large.network.id, 400);
    const costs = async ({ admin, network }: typeof small) => {
      const node = await createNode(admin, network.id);
      return {
        create: await rowsReadBy(
          network.id,
          () => post("/nodes", { networkId: network.id, name: unique("n"), publicKey: fakePublicKey() }, admin.token),
          201,
        ),
        update: await rowsReadBy(network.id, () => patch(`/nodes/${node.id}`, { endpoint: "203.0.113.7:51820" }, admin.token), 200),
        record: await rowsReadBy(
          network.id,
          () => post(`/networks/${network.id}/dns/records`, { name: unique("r"), type: "A", value: "192.0.2.1" }, admin.token),
          201,
        ),
        remove: await rowsReadBy(network.id, () => del(`/nodes/${node.id}`, admin.token), 204),
      };
    };
    const atSmall = await costs(small);
    const atLarge = await costs(large);
    // The meter is live (a write reads at least the network's row), and no write reloaded the network.
    expect(atSmall.create.rowsRead).toBeGreaterThan(0);
    for (const cost of [...Object.values(atSmall), ...Object.values(atLarge)]) expect(cost.loads).toBe(0);
    expect(atLarge).toEqual(atSmall);
  });
});
