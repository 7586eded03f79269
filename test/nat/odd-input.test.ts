// Issue 28 red team: odd bodies a device or a gateway agent may send about endpoints. Each is taken (200) or
// refused with the contract's envelope (422 naming the field), never a 500; what is taken hands out only literal
// endpoints, IPv6 bracketed.
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { fakePublicKey } from "../helpers/factories";
import { configOf, daemonReport, heartbeat, keyOf, natNetwork, peerIn, revisionOf } from "./nat-lab";

describe("odd endpoint input", () => {
  it("heartbeats: odd forms are 422 naming the field; IPv6 and mapped forms are taken and handed out bracketed", async () => {
    const { admin, network, a, b } = await natNetwork();
    const revision = await revisionOf(network.id, admin.token);
    const refused: [unknown, RegExp][] = [
      [{ localEndpoints: ["[::1]"] }, /^localEndpoints/],
      [{ localEndpoints: ["1.2.3.4:0"] }, /^localEndpoints/],
      [{ localEndpoints: ["1.2.3.4:065535"] }, /^localEndpoints/],
      [{ localEndpoints: ["::1:51820"] }, /^localEndpoints/],
      [{ localEndpoints: ["[1:2:3:4:5:6:7:8:9]:1"] }, /^localEndpoints/],
      [{ localEndpoints: [`[${"0:".repeat(40)}1]:1`] }, /^localEndpoints/],
      [{ localEndpoints: "192.168.1.1:1" }, /^localEndpoints/],
      [{ localEndpoints: [null] }, /^localEndpoints/],
      [{ peerReport: { base: null, changed: [[keyOf(b), 1, 1, 1, "1.2.3.4:1", "extra"]] } }, /^peerReport/],
      [{ peerReport: { base: null, changed: [[keyOf(b), 1, 1, 1, null]] } }, /^peerReport/],
      [{ peerReport: { base: null, changed: [[keyOf(b), 1, 1, 1, "host.example:1"]] } }, /^peerReport/],
      [{ peers: [{ publicKey: keyOf(b), lastHandshakeAt: null, rxBytes: 0, txBytes: 0, endpoint: "[fe80::1%eth0]:1" }] }, /^peers/],
      [{ observedEndpoint: "1.2.3.4:1" }, /.*/],
    ];
    for (const [extra, field] of refused) {
      const answer = await post(
        `/client/devices/${a.deviceId}/heartbeat`,
        { appliedRevision: revision, ...(extra as object) },
        a.deviceToken,
      );
      expect(answer.status, JSON.stringify(extra)).toBe(422);
      expect(answer.body.error.code, JSON.stringify(extra)).toBe("VALIDATION_ERROR");
      expect(answer.body.error.fields[0].path, JSON.stringify(extra)).toMatch(field);
    }
    // IPv6 LAN endpoints and an IPv6 source address: B, behind the same address, is told A's first, bracketed.
    await heartbeat(a, revision, [], { localEndpoints: ["[fd00::5]:40001", "[::ffff:192.168.1.5]:40001"], from: "2001:db8::7" });
    await heartbeat(b, await revisionOf(network.id, admin.token), [], { localEndpoints: ["[fd00::6]:40002"], from: "2001:db8::7" });
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)).toMatchObject({ endpoint: "[fd00::5]:40001", persistentKeepalive: 25 });
    const paths = await get(`/nodes/${a.nodeId}/paths`, admin.token);
    expect(paths.body.candidates).toContainEqual({ endpoint: "[2001:db8::7]:40001", source: "public", seenAt: null });
    // A source address that says nothing (loopback, link-local, garbage) is no hint.
    for (const from of ["127.0.0.1", "fe80::1", "not-an-address", "::"]) {
      await heartbeat(a, await revisionOf(network.id, admin.token), [], { localEndpoints: ["[fd00::5]:40001"], from });
    }
    expect((await get(`/nodes/${a.nodeId}/paths`, admin.token)).body.candidates).toContainEqual({
      endpoint: "[2001:db8::7]:40001",
      source: "public",
      seenAt: null,
    });
  });

  it("agent reports: unknown keys, IPv6 endpoints and a node that is not its own", async () => {
    const { admin, network, relay, a, b } = await natNetwork();
    const revision = await revisionOf(network.id, admin.token);
    await daemonReport(relay, revision, [
      { publicKey: fakePublicKey(), handshakeAt: Date.now(), endpoint: "192.0.2.1:1" },
      { publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "[2001:db8::77]:40001" },
    ]);
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)?.endpoint).toBe("[2001:db8::77]:40001");
    // A gateway node still awaiting its agent's key (nobody's peer yet) has paths to read: none, no error.
    const keyless = await post(
      "/nodes",
      { networkId: network.id, name: "gw-keyless", roles: ["gateway"], gatewayId: relay.gatewayId },
      admin.token,
    );
    expect(keyless.status, keyless.text).toBe(201);
    const keylessPaths = await get(`/nodes/${keyless.body.id}/paths`, admin.token);
    expect(keylessPaths.status, keylessPaths.text).toBe(200);
    // Another network's node, or a device's node, named in this agent's report: 404, nothing stored.
    const other = await natNetwork();
    for (const nodeId of [other.relay.node.id, a.nodeId, "node_nope"]) {
      const report = { nodes: [{ nodeId, appliedRoutingRevision: 0, peerReport: { base: null, changed: [], removed: [], more: false } }] };
      expect((await post("/agents/me/report", report, relay.credential)).status, nodeId).toBe(404);
    }
  });
});
