import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { fakePublicKey, gatewayNetwork, signInAdmin } from "../helpers/factories";

describe("the per-network writer under concurrency", () => {
  it("50 concurrent policy and node mutations: none lost, addresses unique, revisions gapless, config consistent", async () => {
    const admin = await signInAdmin();
    const {
      network,
      hops: [g1, g2],
    } = await gatewayNetwork(admin, 2, "10.123.0.0/24");
    const start = (await get(`/networks/${network.id}`, admin.token)).body.routingRevision;

    const mutations = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? post("/nodes", { networkId: network.id, name: `n${i}`, publicKey: fakePublicKey() }, admin.token)
        : post(
            `/networks/${network.id}/routing-policies`,
            {
              name: `p${i}`,
              type: "via_gateway",
              destinationCidr: `172.20.${i}.0/24`,
              gatewayPath: [g1!.id, g2!.id],
            },
            admin.token,
          ),
    );
    const results = await Promise.all(mutations);

    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const revisions = results.map((r) => r.body.revision as number).sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: 50 }, (_, i) => start + 1 + i));

    const network2 = (await get(`/networks/${network.id}`, admin.token)).body;
    expect(network2.routingRevision).toBe(start + 50);
    const nodes = (await get(`/nodes?networkId=${network.id}&limit=200`, admin.token)).body.items as { id: string; address: string }[];
    const policies = (await get(`/networks/${network.id}/routing-policies?limit=200`, admin.token)).body.items as { id: string }[];
    expect(nodes).toHaveLength(27);
    expect(policies).toHaveLength(25);
    expect(new Set(nodes.map((n) => n.address)).size).toBe(27);

    const source = nodes.find((n) => n.id !== g1!.id && n.id !== g2!.id)!;
    const config = (await get(`/nodes/${source.id}/config`, admin.token)).body;
    expect(config.routingRevision).toBe(start + 50);
    expect(config.routingIntent.map((entry: { policyId: string }) => entry.policyId).sort()).toEqual(policies.map((p) => p.id).sort());
    const peerIds = config.peers.map((peer: { nodeId: string }) => peer.nodeId).sort();
    expect(peerIds).toEqual(
      nodes
        .map((n) => n.id)
        .filter((id) => id !== source.id && id !== g2!.id)
        .sort(),
    );
    const viaG1 = config.peers.find((peer: { nodeId: string }) => peer.nodeId === g1!.id).allowedIps;
    expect(viaG1).toEqual(expect.arrayContaining(Array.from({ length: 25 }, (_, k) => `172.20.${2 * k + 1}.0/24`)));
  });
});
