// Issue 28 red team: what a device's own heartbeat (its credential, any body it likes) can make the server
// believe. Only a gateway's agent teaches where a node is after NAT; a report's keys that are no node of the
// network cost the network's writer nothing it keeps.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../helpers/api";
import { createGateway, enrolDevice, fakePublicKey } from "../helpers/factories";
import type { NetworkWriter } from "../../src/objects/network/network-writer";
import { networkWriter } from "../../src/objects/network/client";
import { configOf, heartbeat, keyOf, natNetwork, peerIn, revisionOf } from "./nat-lab";

/** Keys the writer's NAT tracker holds handshakes for, per node it heard from. */
const trackedKeys = (networkId: string) =>
  runInDurableObject(networkWriter(env, networkId), async (instance: NetworkWriter) => {
    const tracker = (instance as unknown as { parts: { nat: { tracker: { nodes: Map<string, { handshakes: Map<string, number> }> } } } })
      .parts.nat.tracker;
    return new Map([...tracker.nodes].map(([id, seen]) => [id, [...seen.handshakes.keys()]]));
  });

describe("what a device's heartbeat can make the server believe", () => {
  it("keys that are no node of the network are not kept: a device cannot fill its writer's memory with them", async () => {
    const { admin, network, a, b } = await natNetwork();
    const revision = await revisionOf(network.id, admin.token);
    const now = Math.floor(Date.now() / 1000);
    // Full delta reports (base null, as often as it likes), each near the body limit with keys of nobody.
    for (let page = 0; page < 4; page++) {
      const changed = [[keyOf(b), now, 1, 1], ...Array.from({ length: 900 }, () => [fakePublicKey(), now, 1, 1])];
      const beat = await post(
        `/client/devices/${a.deviceId}/heartbeat`,
        { appliedRevision: revision, peerReport: { base: null, changed, removed: [], more: false } },
        a.deviceToken,
      );
      expect(beat.status, beat.text).toBe(200);
    }
    // What it says of real peers is heard; the 3,600 others are not held.
    expect((await trackedKeys(network.id)).get(a.nodeId)).toEqual([keyOf(b)]);
  });

  it("a member's device with a configured endpoint cannot set where other nodes are told to find a peer", async () => {
    const { admin, network, a, b } = await natNetwork();
    // A public server enrolled as a device (an admin gave its node an endpoint): its owner writes its heartbeats.
    expect((await patch(`/nodes/${a.nodeId}`, { endpoint: "203.0.113.99:51820" }, admin.token)).status).toBe(200);
    const c = await enrolDevice(admin, { networkId: network.id, name: "laptop-c" });
    await heartbeat(a, await revisionOf(network.id, admin.token), [
      { publicKey: keyOf(b), handshakeAt: Date.now(), endpoint: "192.0.2.66:9999" },
      { publicKey: keyOf(c), handshakeAt: Date.now(), endpoint: "192.0.2.66:9998" },
    ]);
    // B's and C's paths to each other are not redirected to the address A named.
    expect(peerIn(await configOf(c.nodeId, admin.token), b.nodeId)?.endpoint).toBeNull();
    expect(peerIn(await configOf(b.nodeId, admin.token), c.nodeId)?.endpoint).toBeNull();
    // Nor once its node holds the gateway role too (a server enrolled with wgo): a heartbeat is still its owner's.
    const inventory = await createGateway(admin);
    await post(`/groups/${network.groupId}/gateway-assignments`, { gatewayId: inventory.id }, admin.token);
    const promoted = await patch(`/nodes/${a.nodeId}`, { roles: ["gateway"], gatewayId: inventory.id }, admin.token);
    expect(promoted.status, promoted.text).toBe(200);
    const before = await revisionOf(network.id, admin.token);
    await heartbeat(a, before, [{ publicKey: keyOf(b), handshakeAt: Date.now(), endpoint: "192.0.2.66:9999" }]);
    expect(await revisionOf(network.id, admin.token)).toBe(before);
    expect(peerIn(await configOf(c.nodeId, admin.token), b.nodeId)?.endpoint).toBeNull();
  });

  it("LAN endpoints on no LAN (loopback, unspecified, link-local, multicast) are not handed to peers behind the same NAT", async () => {
    const { admin, network, a, b } = await natNetwork();
    const own = ["127.0.0.1:53", "[::1]:53", "0.0.0.0:53", "[fe80::1]:53", "224.0.0.251:5353", "[ff02::fb]:5353", "192.168.1.10:40001"];
    await heartbeat(a, await revisionOf(network.id, admin.token), [], { localEndpoints: own, from: "203.0.113.5" });
    await heartbeat(b, await revisionOf(network.id, admin.token), [], { localEndpoints: ["192.168.1.20:40002"], from: "203.0.113.5" });
    // B would otherwise send A's handshakes to a service on its own host (its resolver on 127.0.0.1:53).
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)?.endpoint).toBe("192.168.1.10:40001");
    const candidates = (await get(`/nodes/${a.nodeId}/paths`, admin.token)).body.candidates;
    expect(candidates.filter((c: { source: string }) => c.source === "local")).toEqual([
      { endpoint: "192.168.1.10:40001", source: "local", seenAt: null },
    ]);
  });
});
