// Security round 4 (issue 40, item 3): one queue rule for every write the network's writer authorises itself.
// A caller the writer does not keep is checked on arrival and refused there, so another tenant's refused writes
// (or a viewer's) never take a turn in this network's queue: each would otherwise cost the network's own writes
// a D1 read's wait. The writer's stats count both: queue turns given, writes refused before a turn.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { networkWriter } from "../../src/objects/network/client";
import { call, del, patch, post } from "../helpers/api";
import { createUser, fakePublicKey, networkSetup, unique } from "../helpers/factories";

const record = () => ({ name: unique("r"), type: "A", value: "10.9.9.9" });
const policy = (hopId: string, third: number) => ({
  name: unique("p"),
  type: "via_gateway",
  destinationCidr: `172.29.${third}.0/24`,
  gatewayPath: [hopId],
});

/** Every write kind the writer authorises itself, against real resources of the network. */
function everyWriteKind(networkId: string, ids: { node: string; record: string; policy: string; hop: string }, token: string) {
  return {
    "node create": () => post("/nodes", { networkId, name: unique("n"), publicKey: fakePublicKey() }, token),
    "node update": () => patch(`/nodes/${ids.node}`, { name: unique("m") }, token),
    "node delete": () => del(`/nodes/${ids.node}`, token),
    "DNS create": () => post(`/networks/${networkId}/dns/records`, record(), token),
    "DNS replace": () => call("PUT", `/dns/records/${ids.record}`, { body: record(), token }),
    "DNS delete": () => del(`/dns/records/${ids.record}`, token),
    "policy create": () => post(`/networks/${networkId}/routing-policies`, policy(ids.hop, 1), token),
    "policy replace": () => call("PUT", `/routing-policies/${ids.policy}`, { body: policy(ids.hop, 2), token }),
    "policy delete": () => del(`/routing-policies/${ids.policy}`, token),
    "access-policy PUT": () => call("PUT", `/networks/${networkId}/access-policy`, { body: { rules: [], tests: [] }, token }),
  };
}

const stats = (networkId: string) => networkWriter(env, networkId).stats();

describe("one queue rule: a caller the writer does not keep is refused before its write takes a turn", () => {
  it("a stranger (404) and a viewer (403) take no turn in the victim's queue, for every write kind", async () => {
    const { admin, network, hops, as } = await networkSetup({ gateways: 1 });
    const node = await post("/nodes", { networkId: network.id, name: unique("n"), publicKey: fakePublicKey() }, admin.token);
    const dns = await post(`/networks/${network.id}/dns/records`, record(), admin.token);
    const routed = await post(`/networks/${network.id}/routing-policies`, policy(hops[0]!.id, 3), admin.token);
    for (const created of [node, dns, routed]) expect(created.status).toBe(201);
    const ids = { node: node.body.id, record: dns.body.id, policy: routed.body.id, hop: hops[0]!.id };
    const stranger = await createUser(admin);
    const viewer = await as("viewer");

    for (const [caller, status] of [
      [stranger, 404],
      [viewer, 403],
    ] as const) {
      for (const [kind, write] of Object.entries(everyWriteKind(network.id, ids, caller.token))) {
        const before = await stats(network.id);
        const answers = await Promise.all([write(), write(), write()]);
        for (const answer of answers) expect(answer.status, `${kind} by a ${status === 404 ? "stranger" : "viewer"}`).toBe(status);
        const after = await stats(network.id);
        expect(after.refusedBeforeTurn - before.refusedBeforeTurn, kind).toBe(3);
        expect(after.queueTurns - before.queueTurns, `${kind}: turns taken`).toBe(0);
      }
    }
    // The victim's own writes still take their turns and commit.
    const before = await stats(network.id);
    expect((await post(`/networks/${network.id}/dns/records`, record(), admin.token)).status).toBe(201);
    expect((await stats(network.id)).queueTurns).toBeGreaterThan(before.queueTurns);
  });
});
