import { describe, expect, it } from "vitest";
import { call, get, post } from "../helpers/api";
import { createGroup, createNetwork, fakePublicKey, signInAdmin } from "../helpers/factories";

/**
 * A fleet rollout: 120 headless devices enrol with one key (limit 80) while an operator adds nodes and
 * enrolled devices already send heartbeats. Exactly 80 enrol, every address is used once, the routing
 * revision moved once per node or device, and each device's config lists every other member.
 */
describe("load: a rollout of headless devices", () => {
  it("120 enrolments against a limit of 80, with node creates and heartbeats interleaved", async () => {
    const admin = await signInAdmin();
    const network = await createNetwork(admin, (await createGroup(admin)).id, "10.91.0.0/22");
    const key = (await post(`/networks/${network.id}/enrolment-keys`, { name: "rollout", usageLimit: 80 }, admin.token)).body.key as string;
    const start = (await get(`/networks/${network.id}`, admin.token)).body;

    const first = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call("POST", "/client/devices", { body: { name: `dev-${i}`, publicKey: fakePublicKey(), enrolmentKey: key } }),
      ),
    );
    const enrolled = first
      .filter((r) => r.status === 201)
      .map((r) => ({ id: r.body.device.id as string, token: r.body.deviceToken as string }));
    const second = await Promise.all([
      ...Array.from({ length: 60 }, (_, i) =>
        call("POST", "/client/devices", { body: { name: `dev-${60 + i}`, publicKey: fakePublicKey(), enrolmentKey: key } }),
      ),
      ...Array.from({ length: 20 }, (_, i) =>
        post("/nodes", { networkId: network.id, name: `srv-${i}`, publicKey: fakePublicKey() }, admin.token),
      ),
      ...enrolled
        .slice(0, 30)
        .map((d) => call("POST", `/client/devices/${d.id}/heartbeat`, { token: d.token, body: { appliedRevision: 1 } })),
    ]);
    for (const response of [...first, ...second]) expect([200, 201, 401], response.text).toContain(response.status);

    const devices = [...first, ...second.slice(0, 60)].filter((r) => r.status === 201);
    expect(devices).toHaveLength(80);
    expect(second.slice(60, 80).every((r) => r.status === 201)).toBe(true);
    const end = (await get(`/networks/${network.id}`, admin.token)).body;
    expect(end.routingRevision - start.routingRevision).toBe(100);
    const nodes = (await get(`/nodes?networkId=${network.id}&limit=200`, admin.token)).body.items as { id: string; address: string }[];
    expect(nodes).toHaveLength(100);
    expect(new Set(nodes.map((n) => n.address)).size).toBe(100);
    expect((await get(`/networks/${network.id}/enrolment-keys`, admin.token)).body.items[0].usedCount).toBe(80);

    const sample = devices[devices.length - 1]!.body;
    const config = await call("POST", `/client/devices/${sample.device.id}/config`, { token: sample.deviceToken });
    expect(config.body.config.routingRevision).toBe(end.routingRevision);
    expect(config.body.config.peers.map((p: { nodeId: string }) => p.nodeId).sort()).toEqual(
      nodes
        .map((n) => n.id)
        .filter((id) => id !== sample.node.id)
        .sort(),
    );
  }, 60_000);
});
