import { describe, expect, it } from "vitest";
import { get, patch, post } from "../helpers/api";
import { createNode, fakePublicKey } from "../helpers/factories";
import { checkAt, configOf, daemonReport, heartbeat, keyOf, natNetwork, peerIn, relayNode, revisionOf } from "./nat-lab";

// Issue 28: what the server learns of where a node that only dials out can be reached, and what it hands out.
describe("endpoint candidates", () => {
  it("learns LAN endpoints and the source address from heartbeats, the address after NAT from a gateway, and hands the best to NAT'd peers", async () => {
    const { admin, network, relay, a, b } = await natNetwork();
    const start = await revisionOf(network.id, admin.token);
    // Nothing learned yet: two laptops without endpoints cannot find each other.
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)).toMatchObject({ endpoint: null, persistentKeepalive: null });

    // A's heartbeat: its LAN endpoint and the address it came from (its NAT's, as a hint).
    const answer = await heartbeat(a, start, [], { localEndpoints: ["192.168.1.10:40001"], from: "203.0.113.5" });
    const afterBeat = await revisionOf(network.id, admin.token);
    expect(afterBeat).toBe(start + 1);
    // What the beat taught moved the revision: its answer names the new one, so A fetches it now.
    expect(answer).toMatchObject({ desiredRevision: start + 1, configChanged: true });
    // The hint: the source address with A's own port (what a port-preserving NAT keeps), and a keepalive.
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)).toMatchObject({
      endpoint: "203.0.113.5:40001",
      persistentKeepalive: 25,
    });
    // The same heartbeat again changes nothing: no write, no revision.
    await heartbeat(a, afterBeat, [], { localEndpoints: ["192.168.1.10:40001"], from: "203.0.113.5" });
    expect(await revisionOf(network.id, admin.token)).toBe(afterBeat);

    // The relay's daemon saw A's handshake from 198.51.100.77:40001: the address after NAT wins over the hint.
    await daemonReport(relay, afterBeat, [{ publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "198.51.100.77:40001" }]);
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)).toMatchObject({
      endpoint: "198.51.100.77:40001",
      persistentKeepalive: 25,
    });
    // A public node is not handed it: A dials it, and its WireGuard learns A's address by roaming.
    expect(peerIn(await configOf(relay.node.id, admin.token), a.nodeId)).toMatchObject({ endpoint: null, persistentKeepalive: null });

    // B behind the same NAT (same address after it): A and B are told each other's LAN endpoints.
    await heartbeat(b, await revisionOf(network.id, admin.token), [], { localEndpoints: ["192.168.1.20:40002"] });
    await daemonReport(relay, afterBeat, [
      { publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "198.51.100.77:40001" },
      { publicKey: keyOf(b), handshakeAt: Date.now(), endpoint: "198.51.100.77:40002" },
    ]);
    expect(peerIn(await configOf(a.nodeId, admin.token), b.nodeId)).toMatchObject({ endpoint: "192.168.1.20:40002" });
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)).toMatchObject({ endpoint: "192.168.1.10:40001" });

    const paths = await get(`/nodes/${a.nodeId}/paths`, admin.token);
    expect(paths.status, paths.text).toBe(200);
    expect(paths.body.candidates).toEqual([
      { endpoint: "198.51.100.77:40001", source: "observed", seenAt: expect.any(String) },
      { endpoint: "192.168.1.10:40001", source: "local", seenAt: null },
      { endpoint: "203.0.113.5:40001", source: "public", seenAt: null },
    ]);
  });

  it("hears a device change its own endpoints at most every 30 s: a flood of changes is not a flood of revisions", async () => {
    const { admin, network, a } = await natNetwork();
    await heartbeat(a, await revisionOf(network.id, admin.token), [], { localEndpoints: ["192.168.1.10:40001"] });
    const learned = await revisionOf(network.id, admin.token);
    for (let i = 2; i < 6; i++) await heartbeat(a, learned, [], { localEndpoints: [`192.168.1.${i}:40001`] });
    expect(await revisionOf(network.id, admin.token)).toBe(learned);
    expect((await get(`/nodes/${a.nodeId}/paths`, admin.token)).body.candidates).toEqual([
      { endpoint: "192.168.1.10:40001", source: "local", seenAt: null },
    ]);
  });

  it("does not let two observers that disagree make an endpoint flap, and trusts only public observers", async () => {
    const { admin, network, relay, a, b } = await natNetwork();
    const second = await relayNode(admin, network.id, "relay-2", "198.51.100.51:51820");
    const revision = await revisionOf(network.id, admin.token);
    await daemonReport(relay, revision, [{ publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "198.51.100.77:40001" }]);
    const learned = await revisionOf(network.id, admin.token);
    // A NAT that gives each destination its own port: relay-2 sees another one. The held endpoint stays.
    await daemonReport(second, learned, [{ publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "198.51.100.77:61111" }]);
    expect(await revisionOf(network.id, admin.token)).toBe(learned);
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)?.endpoint).toBe("198.51.100.77:40001");
    // The observer that taught it sees A's NAT move it (a router rebooted): every peer follows at once.
    await daemonReport(relay, learned, [{ publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "198.51.100.77:42000" }]);
    expect(await revisionOf(network.id, admin.token)).toBe(learned + 1);
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)?.endpoint).toBe("198.51.100.77:42000");
    // A stale handshake says nothing of where the peer is now.
    await daemonReport(second, learned, [{ publicKey: keyOf(b), handshakeAt: Date.now() - 10 * 60_000, endpoint: "198.51.100.78:1" }]);
    expect(peerIn(await configOf(a.nodeId, admin.token), b.nodeId)?.endpoint).toBeNull();
    // A laptop's view of a LAN neighbour is no address after NAT: B's report does not teach A's.
    await heartbeat(b, learned + 1, [{ publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "10.9.9.9:1" }]);
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)?.endpoint).toBe("198.51.100.77:42000");
  });

  it("drops candidates nobody confirmed for the TTL, and refuses malformed ones (422)", async () => {
    const { admin, network, relay, a, b } = await natNetwork();
    await heartbeat(a, await revisionOf(network.id, admin.token), [], { localEndpoints: ["192.168.1.10:40001"] });
    await daemonReport(relay, await revisionOf(network.id, admin.token), [
      { publicKey: keyOf(a), handshakeAt: Date.now(), endpoint: "198.51.100.77:40001" },
    ]);
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)?.endpoint).toBe("198.51.100.77:40001");
    const before = await revisionOf(network.id, admin.token);
    // Ten minutes (the default TTL) and a second later, with no report since.
    await checkAt(network.id, Date.now() + 601_000);
    expect(await revisionOf(network.id, admin.token)).toBe(before + 1);
    expect(peerIn(await configOf(b.nodeId, admin.token), a.nodeId)).toMatchObject({ endpoint: null, persistentKeepalive: null });
    expect((await get(`/nodes/${a.nodeId}/paths`, admin.token)).body.candidates).toEqual([]);

    for (const localEndpoints of [["laptop.lan:40001"], ["192.168.1.10"], ["[fe80::1%eth0]:40001"], Array(9).fill("192.168.1.10:1")]) {
      const refused = await post(`/client/devices/${a.deviceId}/heartbeat`, { appliedRevision: before, localEndpoints }, a.deviceToken);
      expect(refused.status, JSON.stringify(localEndpoints)).toBe(422);
      expect(refused.body.error.fields[0].path).toMatch(/^localEndpoints/);
    }
  });

  it("a relay is a gateway node's role: refused on other nodes (422), shown on the node", async () => {
    const { admin, network, relay } = await natNetwork();
    expect((await get(`/nodes/${relay.node.id}`, admin.token)).body.relay).toBe(true);
    const plain = await createNode(admin, network.id);
    expect((await patch(`/nodes/${plain.id}`, { relay: true }, admin.token)).status).toBe(422);
    const created = await post("/nodes", { networkId: network.id, name: "r", publicKey: fakePublicKey(), relay: true }, admin.token);
    expect(created.status).toBe(422);
    expect(created.body.error.fields[0].path).toBe("relay");
    // A relay forwards (its config turns IP forwarding on) and stays a peer of everyone.
    expect((await configOf(relay.node.id, admin.token)).forwarding).toBe(true);
  });
});
