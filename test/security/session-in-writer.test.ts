// Node, DNS and policy writes are authorised in the network's writer, session included (issue 30, item 5:
// docs/architecture.md, "Authority inside the batch"). The Worker reads no session for them; the writer reads the
// caller's session and role once, then keeps a caller a committed batch proved (authority/kept-authority.ts) and
// leaves the check to each write's batch. Whatever path a write took, an ended session, a demotion or a
// removal must change nothing and answer as a fresh check would.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { networkWriter } from "../../src/objects/network/client";
import { call, del, patch, post } from "../helpers/api";
import { enrolDevice, fakePublicKey, networkSetup, unique } from "../helpers/factories";

const record = () => ({ name: unique("r"), type: "A", value: "10.9.9.9" });
const policy = (gatewayId: string, third: number) => ({
  name: unique("p"),
  type: "via_gateway",
  destinationCidr: `172.31.${third}.0/24`,
  gatewayPath: [gatewayId],
});

/** What these writes could change: the network's revisions and its rows of each kind. */
const footprint = async (networkId: string) =>
  env.DB.prepare(
    `select n.routing_revision as r, n.dns_revision as d,
      (select count(*) from nodes where network_id = n.id) as nodes,
      (select group_concat(name) from nodes where network_id = n.id) as names,
      (select count(*) from dns_records where network_id = n.id) as records,
      (select count(*) from routing_policies where network_id = n.id) as policies
     from networks n where n.id = ?`,
  )
    .bind(networkId)
    .first();

const keptCallers = async (networkId: string) => (await networkWriter(env, networkId).stats()).keptCallers;

/** A network with a gateway hop, a user who manages it, and one of each resource that user wrote. */
async function managedByUser() {
  const { admin, group, network, hops, as } = await networkSetup({ gateways: 1 });
  const manager = await as("admin");
  const node = await post("/nodes", { networkId: network.id, name: unique("n"), publicKey: fakePublicKey() }, manager.token);
  const dns = await post(`/networks/${network.id}/dns/records`, record(), manager.token);
  const routed = await post(`/networks/${network.id}/routing-policies`, policy(hops[0]!.id, 1), manager.token);
  for (const created of [node, dns, routed]) expect(created.status).toBe(201);
  return { admin, group, network, hop: hops[0]!, manager, node: node.body, record: dns.body, policy: routed.body };
}

/** Every write route on the writer's guard, on the given resources (ids that may not exist). */
function writes(networkId: string, ids: { node: string; record: string; policy: string }, hopId: string, token: string) {
  return [
    () => post("/nodes", { networkId, name: unique("n"), publicKey: fakePublicKey() }, token),
    () => patch(`/nodes/${ids.node}`, { name: unique("m") }, token),
    () => del(`/nodes/${ids.node}`, token),
    () => post(`/networks/${networkId}/dns/records`, record(), token),
    () => call("PUT", `/dns/records/${ids.record}`, { body: record(), token }),
    () => del(`/dns/records/${ids.record}`, token),
    () => post(`/networks/${networkId}/routing-policies`, policy(hopId, 2), token),
    () => call("PUT", `/routing-policies/${ids.policy}`, { body: policy(hopId, 3), token }),
    () => del(`/routing-policies/${ids.policy}`, token),
  ];
}

describe("writes authorised in the network's writer, session included", () => {
  it("a kept caller who signed out is refused 401 by every write route, existing ids or not, and nothing changes", async () => {
    const { network, hop, manager, node, record: dns, policy: routed } = await managedByUser();
    expect(await keptCallers(network.id)).toBeGreaterThanOrEqual(1);
    const before = await footprint(network.id);
    expect((await post("/auth/logout", {}, manager.token)).status).toBe(204);
    const real = { node: node.id, record: dns.id, policy: routed.id };
    const made = { node: "node_missing", record: "dns_missing", policy: "pol_missing" };
    for (const write of [...writes(network.id, real, hop.id, manager.token), ...writes(network.id, made, hop.id, manager.token)]) {
      const answer = await write();
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("unauthorized");
    }
    expect((await post("/nodes", { networkId: "net_missing", name: "x", publicKey: fakePublicKey() }, manager.token)).status).toBe(401);
    expect(await footprint(network.id)).toEqual(before);
  });

  it("a kept admin demoted to member gets 403 from every write and is no longer kept", async () => {
    const { admin, group, network, hop, manager, node, record: dns, policy: routed } = await managedByUser();
    // The platform admin (who added the gateway node) and the manager.
    expect(await keptCallers(network.id)).toBe(2);
    expect((await patch(`/groups/${group.id}/members/${manager.userId}`, { role: "member" }, admin.token)).status).toBe(200);
    const before = await footprint(network.id);
    for (const write of writes(network.id, { node: node.id, record: dns.id, policy: routed.id }, hop.id, manager.token)) {
      expect((await write()).status).toBe(403);
    }
    expect(await footprint(network.id)).toEqual(before);
    expect(await keptCallers(network.id)).toBe(1);
  });

  it("a kept caller's write that fails on its own (409, 422) after a demotion answers 403: no batch re-checked it", async () => {
    const { admin, group, network, manager, node, record: dns } = await managedByUser();
    const setRole = async (role: string) =>
      expect((await patch(`/groups/${group.id}/members/${manager.userId}`, { role }, admin.token)).status).toBe(200);
    const failing = [
      () => post("/nodes", { networkId: network.id, name: node.name, publicKey: fakePublicKey() }, manager.token),
      () => post(`/networks/${network.id}/dns/records`, { name: dns.name, type: "CNAME", value: "elsewhere" }, manager.token),
      () => post(`/networks/${network.id}/dns/records`, { name: "ok", type: "A", value: "not-an-address" }, manager.token),
      // The gateway node's name (networkSetup's "gw1"): a 409 of the writer's own.
      () => patch(`/nodes/${node.id}`, { name: "gw1" }, manager.token),
    ];
    for (const write of failing) {
      // Kept again: a write of the manager's commits, then the demotion, then the failing write comes first.
      await setRole("admin");
      expect((await post(`/networks/${network.id}/dns/records`, record(), manager.token)).status).toBe(201);
      await setRole("member");
      const before = await footprint(network.id);
      expect((await write()).status).toBe(403);
      expect(await footprint(network.id)).toEqual(before);
    }
  });

  it("a removed kept admin's writes are 404 while another admin's concurrent writes all commit", async () => {
    const { admin, group, network, manager } = await managedByUser();
    const removal = await del(`/groups/${group.id}/members/${manager.userId}`, admin.token);
    expect(removal.status).toBe(204);
    const before = (await footprint(network.id)) as { records: number };
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => post(`/networks/${network.id}/dns/records`, record(), admin.token)),
      ...Array.from({ length: 4 }, () => post(`/networks/${network.id}/dns/records`, record(), manager.token)),
    ]);
    expect(answers.slice(0, 8).map((answer) => answer.status)).toEqual(Array(8).fill(201));
    expect(answers.slice(8).map((answer) => answer.status)).toEqual(Array(4).fill(404));
    expect(((await footprint(network.id)) as { records: number }).records).toBe(before.records + 8);
  });

  it("a demoted kept admin's refused node removal leaves the node's hot state in the object (it goes only once a removal commits)", async () => {
    const { admin, group, network, manager } = await managedByUser();
    const device = await enrolDevice(admin, { networkId: network.id });
    const peer = await enrolDevice(admin, { networkId: network.id });
    const tunnel = { publicKey: peer.body.node.publicKey, lastHandshakeAt: new Date().toISOString(), rxBytes: 1, txBytes: 2 };
    const beat = await call("POST", `/client/devices/${device.deviceId}/heartbeat`, {
      token: device.deviceToken,
      body: { appliedRevision: null, peers: [tunnel] },
    });
    expect(beat.status).toBe(200);
    const tunnelsOf = async () =>
      ((await call("GET", `/tunnels?networkId=${network.id}`, { token: admin.token })).body.items as { fromNodeId: string }[]).map(
        (row) => row.fromNodeId,
      );
    expect(await tunnelsOf()).toEqual([device.nodeId]);
    expect((await patch(`/groups/${group.id}/members/${manager.userId}`, { role: "member" }, admin.token)).status).toBe(200);
    expect((await del(`/nodes/${device.nodeId}`, manager.token)).status).toBe(403);
    expect(await tunnelsOf()).toEqual([device.nodeId]);
  });
});
