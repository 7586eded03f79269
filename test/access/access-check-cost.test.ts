// GET …/access-check decides one flow: it reads the owners of its two ends and no other node's (building
// every node of a large network per request would make a check cost the network, not the rules).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { HeldNetwork } from "../../src/objects/network/memory/held-network";
import { loadNetworkState } from "../../src/objects/network/state";
import { checkAccessFlow } from "../../src/objects/network/views/access-policy";
import { call, patch } from "../helpers/api";
import { createNode, enrolDevice, networkSetup } from "../helpers/factories";

/** The network as its writer holds it, counting which nodes' owners are looked up. */
async function heldCountingOwners(networkId: string) {
  const held = new HeldNetwork(await loadNetworkState(createDb(env.DB), networkId));
  const looked: string[] = [];
  const get = held.owners.get.bind(held.owners);
  held.owners.get = (nodeId: string) => {
    looked.push(nodeId);
    return get(nodeId);
  };
  return { held, looked };
}

describe("access-check cost", () => {
  it("builds only its source and destination, whether the destination is named by id or by address", async () => {
    const { admin, network, as } = await networkSetup();
    const member = await as("member");
    const laptop = await enrolDevice(member, { networkId: network.id });
    const web = await createNode(admin, network.id);
    for (let i = 0; i < 8; i++) await createNode(admin, network.id);
    const rules = [{ action: "allow", src: ["role:member"], dst: ["*"], ports: ["tcp:443"] }];
    expect((await call("PUT", `/networks/${network.id}/access-policy`, { body: { rules, tests: [] }, token: admin.token })).status).toBe(
      200,
    );
    expect((await patch(`/networks/${network.id}`, { accessMode: "policy" }, admin.token)).status).toBe(200);

    const { held, looked } = await heldCountingOwners(network.id);
    expect(held.nodes.size).toBe(10);
    expect(checkAccessFlow(held, { src: laptop.nodeId, dst: web.id, port: "tcp:443" })).toMatchObject({
      allowed: true,
      rule: { index: 0 },
    });
    expect(looked.sort()).toEqual([laptop.nodeId, web.id].sort());
    looked.length = 0;
    expect(checkAccessFlow(held, { src: web.id, dst: laptop.address, port: "tcp:443" })).toEqual({ allowed: false, rule: null });
    expect(looked.sort()).toEqual([laptop.nodeId, web.id].sort());
    looked.length = 0;
    expect(checkAccessFlow(held, { src: laptop.nodeId, dst: "192.0.2.7", port: "tcp:443" })).toMatchObject({ allowed: true });
    expect(looked).toEqual([laptop.nodeId]);
  });
});
