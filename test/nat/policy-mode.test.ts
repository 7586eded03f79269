// Issue 28 red team: a relayed pair in a network that turns to policy mode (docs/access.md), through the real
// writer: the stored pair the policy does not allow is carried by no relay and leaves no entry either side, its
// check and its paths answer without error, and a pair the policy allows stays relayed.
import { describe, expect, it } from "vitest";
import { call, get, patch } from "../helpers/api";
import { checkAt, configOf, natNetwork, strandPair, peerIn } from "./nat-lab";

describe("relayed pairs in policy mode", () => {
  it("a relayed pair the policy then denies: no entry of the other, no address on the relay; an allowed one stays relayed", async () => {
    const lab = await natNetwork();
    const { admin, network, relay, a, b } = lab;
    await strandPair(lab);
    expect((await checkAt(network.id, Date.now() + 21_000)).moves).toHaveLength(1);
    expect(peerIn(await configOf(a.nodeId, admin.token), b.nodeId)?.allowedIps).toEqual([]);

    // A policy that lets A reach B keeps the pair relayed: B's entry on A stays, emptied, B's address on the relay.
    const allowAtoB = { rules: [{ action: "allow", src: [`node:${a.nodeId}`], dst: [`node:${b.nodeId}`], ports: ["*"] }], tests: [] };
    expect((await call("PUT", `/networks/${network.id}/access-policy`, { body: allowAtoB, token: admin.token })).status).toBe(200);
    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);
    expect(peerIn(await configOf(a.nodeId, admin.token), b.nodeId)?.allowedIps).toEqual([]);
    expect(peerIn(await configOf(a.nodeId, admin.token), relay.node.id)?.allowedIps).toContain(`${b.address}/32`);

    // The policy changes: nothing between A and B. Neither holds the other, and the relay carries neither to the other.
    const nothing = { rules: [{ action: "allow", src: [`node:${a.nodeId}`], dst: [`node:${relay.node.id}`], ports: ["*"] }], tests: [] };
    expect((await call("PUT", `/networks/${network.id}/access-policy`, { body: nothing, token: admin.token })).status).toBe(200);
    for (const [self, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const config = await configOf(self.nodeId, admin.token);
      expect(peerIn(config, other.nodeId), self.nodeId).toBeUndefined();
      expect(peerIn(config, relay.node.id)?.allowedIps, self.nodeId).not.toContain(`${other.address}/32`);
    }
    expect((await checkAt(network.id, Date.now() + 120_000)).moves).toEqual([]);
    const paths = await get(`/nodes/${a.nodeId}/paths`, a.deviceToken);
    expect(paths.status, paths.text).toBe(200);
    expect(paths.body.items.map((item: { peerNodeId: string }) => item.peerNodeId)).toEqual([relay.node.id]);
  });
});
