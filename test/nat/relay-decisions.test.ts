import { checkPresence } from "../helpers/hot-presence";
import { describe, expect, it } from "vitest";
import { get, post } from "../helpers/api";
import { sampleValue, scrape } from "../metrics/support";
import { enrolDevice, networkSetup } from "../helpers/factories";
import { auditRoutes, checkAt, configOf, heartbeat, keyOf, natNetwork, strandPair, peerIn, relayNode, revisionOf } from "./nat-lab";

const TIMEOUT_MS = 20_000; // NAT_DIRECT_TIMEOUT_SECONDS
const HOLD_MS = 60_000; // NAT_RELAY_HOLD_SECONDS

/** A and B hold each other's addresses after NAT and report live sessions with the relay, none with each other. */
async function strandedPair() {
  const lab = await natNetwork();
  const { relay, a, b } = lab;
  const { revision } = await strandPair(lab);
  // Handshake times may be on the test's clock (checkAt judges at a chosen time), later than the real one.
  const beat = (extra: { aSeesB?: number; bSeesA?: number; relayAt?: number } = {}) => {
    const toRelay = { publicKey: relay.node.publicKey, handshakeAt: extra.relayAt ?? Date.now(), endpoint: "198.51.100.50:51820" };
    return Promise.all([
      heartbeat(a, revision, [toRelay, ...(extra.aSeesB ? [{ publicKey: keyOf(b), handshakeAt: extra.aSeesB }] : [])]),
      heartbeat(b, revision, [toRelay, ...(extra.bSeesA ? [{ publicKey: keyOf(a), handshakeAt: extra.bSeesA }] : [])]),
    ]);
  };
  return { ...lab, revision, beat, startedAt: Date.now() };
}

describe("relayed pairs", () => {
  it("moves a pair with no handshake onto the relay after the timeout, as a delta-carried, audited routing change", async () => {
    const { admin, network, relay, a, b, revision, startedAt, as } = await strandedPair();
    // Before the timeout nothing moves, and the check says when to look again.
    const early = await checkAt(network.id, startedAt + TIMEOUT_MS / 2);
    expect(early.moves).toEqual([]);
    expect(early.nextCheckAt).toBeGreaterThan(startedAt + TIMEOUT_MS / 2);

    const moved = await checkAt(network.id, startedAt + TIMEOUT_MS + 1000);
    expect(moved.moves).toEqual([expect.objectContaining({ relayNodeId: relay.node.id, reason: "no-direct-handshake", holdSeconds: 60 })]);
    expect(await revisionOf(network.id, admin.token)).toBe(revision + 1);
    // A routes B through the relay; B's own entry stays, emptied, so direct keeps being tried underneath.
    const configA = await configOf(a.nodeId, admin.token);
    expect(peerIn(configA, b.nodeId)).toMatchObject({ allowedIps: [], endpoint: "198.51.100.88:40002", persistentKeepalive: 25 });
    // wg refuses an empty AllowedIPs line: the entry has none.
    const entryB = configA.wgQuick.slice(configA.wgQuick.indexOf(`(${b.nodeId})`)).split("\n\n")[0];
    expect(entryB).toContain("Endpoint = 198.51.100.88:40002");
    expect(entryB).not.toContain("AllowedIPs");
    const relayEntry = peerIn(configA, relay.node.id)!;
    expect(relayEntry.allowedIps).toEqual([`${relay.node.address}/32`, `${b.address}/32`].sort(byAddress));
    expect(peerIn(await configOf(b.nodeId, admin.token), relay.node.id)!.allowedIps).toContain(`${a.address}/32`);
    // The relay holds both as usual: it carries their traffic between them.
    const relayConfig = await configOf(relay.node.id, admin.token);
    expect(peerIn(relayConfig, a.nodeId)!.allowedIps).toEqual([`${a.address}/32`]);
    expect(relayConfig.forwarding).toBe(true);
    // A device holding the old revision gets only what changed: the two entries.
    const delta = await post(`/client/devices/${a.deviceId}/config`, { sinceRevision: revision }, a.deviceToken);
    expect(delta.status, delta.text).toBe(200);
    expect(delta.body.delta.peersUpserted.map((peer: { nodeId: string }) => peer.nodeId).sort()).toEqual([b.nodeId, relay.node.id].sort());
    expect(delta.body.delta.peersRemoved).toEqual([]);

    const paths = (await get(`/nodes/${a.nodeId}/paths`, a.deviceToken)).body;
    expect(paths.items.find((item: { peerNodeId: string }) => item.peerNodeId === b.nodeId)).toMatchObject({
      path: "relay",
      via: { nodeId: relay.node.id, name: "relay-1" },
      endpoint: "198.51.100.88:40002",
    });
    expect(await auditRoutes(network.id)).toEqual([
      expect.objectContaining({ route: "nat.pair-relayed", relay: relay.node.id, reason: "no-direct-handshake" }),
    ]);
    // The network's relayed pairs, by name, for its managers.
    const pairs = await get(`/networks/${network.id}/relayed-pairs`, admin.token);
    expect(pairs.status, pairs.text).toBe(200);
    expect(pairs.body.items).toEqual([expect.objectContaining({ relay: { nodeId: relay.node.id, name: "relay-1" }, holdSeconds: 60 })]);
    expect([pairs.body.items[0].a.name, pairs.body.items[0].b.name].sort()).toEqual(["laptop-a", "laptop-b"]);
    // They name every member's devices: a viewer is refused.
    expect((await get(`/networks/${network.id}/relayed-pairs`, (await as("viewer")).token)).status).toBe(403);
    // /metrics counts the pair on its path.
    const scraped = await scrape(admin.token);
    expect(sampleValue(scraped, "wgo_network_peer_paths", { network_id: network.id, path: "relay" })).toBe(1);
  });

  it("does not bounce: stays relayed without a direct handshake, returns on one after the hold, doubles the hold when that fails", async () => {
    const { admin, network, relay, a, b, beat, startedAt } = await strandedPair();
    const relayedAt = startedAt + TIMEOUT_MS + 1000;
    await checkAt(network.id, relayedAt);
    // After the hold, still no direct handshake: the pair stays on the relay.
    expect((await checkAt(network.id, relayedAt + HOLD_MS + 1000)).moves).toEqual([]);
    // Both ends report a direct handshake (their emptied entries kept trying), but only after the hold does the pair go back.
    const direct = relayedAt + 5000;
    await beat({ aSeesB: direct, bSeesA: direct });
    expect((await checkAt(network.id, direct + 1000)).moves).toEqual([]);
    const back = await checkAt(network.id, relayedAt + HOLD_MS + 1000);
    expect(back.moves).toEqual([expect.objectContaining({ relayNodeId: null, reason: "direct-works" })]);
    expect(peerIn(await configOf(a.nodeId, admin.token), b.nodeId)!.allowedIps).toEqual([`${b.address}/32`]);
    // /metrics counts paths from the figures the network's presence check writes (about once a minute): run it now.
    await checkPresence(network.id, direct + 1000);
    const scraped = await scrape(admin.token);
    // Direct: A-B again, and each laptop with the relay (their own tunnels, live too).
    expect(sampleValue(scraped, "wgo_network_peer_paths", { network_id: network.id, path: "direct" })).toBe(3);
    expect(sampleValue(scraped, "wgo_network_peer_paths", { network_id: network.id, path: "relay" })).toBeUndefined();
    // The direct path dies (no handshake for WireGuard's 180 s and the reports' lag): relayed again, twice as long.
    const dead = direct + 301_000 + TIMEOUT_MS;
    await beat({ relayAt: dead - 1000 });
    const again = await checkAt(network.id, dead);
    expect(again.moves).toEqual([expect.objectContaining({ relayNodeId: relay.node.id, holdSeconds: 120 })]);
    expect((await auditRoutes(network.id)).map((row) => row.route)).toEqual(["nat.pair-relayed", "nat.pair-direct", "nat.pair-relayed"]);
  });

  it("chooses a relay both ends have a live session with, moves off one they lost, and never uses another network's", async () => {
    const { admin, network, a, b, startedAt } = await strandedPair();
    // A second relay nobody has a session with is never chosen.
    const idle = await relayNode(admin, network.id, "relay-idle", "198.51.100.60:51820");
    const [moved] = (await checkAt(network.id, startedAt + TIMEOUT_MS + 1000)).moves;
    expect(moved?.relayNodeId).not.toBe(idle.node.id);
    // Both ends lose their session with the relay (no handshake reported for 300 s): the pair leaves it.
    const left = await checkAt(network.id, Date.now() + 301_000);
    expect(left.moves).toEqual([expect.objectContaining({ relayNodeId: null, reason: "relay-unreachable" })]);

    // Another network's pair, stranded the same way, with only this network's relays in sight: never relayed.
    const other = await networkSetup();
    const c = await enrolDevice(other.admin, { networkId: other.network.id });
    const d = await enrolDevice(other.admin, { networkId: other.network.id });
    const otherRevision = await revisionOf(other.network.id, other.admin.token);
    await heartbeat(c, otherRevision, [{ publicKey: idle.node.publicKey, handshakeAt: Date.now() }], {
      localEndpoints: ["192.168.5.1:1"],
      from: "203.0.113.10",
    });
    await heartbeat(d, otherRevision, [{ publicKey: idle.node.publicKey, handshakeAt: Date.now() }], {
      localEndpoints: ["192.168.6.1:1"],
      from: "203.0.113.11",
    });
    const latest = await revisionOf(other.network.id, other.admin.token);
    await Promise.all([heartbeat(c, latest, []), heartbeat(d, latest, [])]);
    expect((await checkAt(other.network.id, Date.now() + 10 * TIMEOUT_MS)).moves).toEqual([]);
    const cPaths = (await get(`/nodes/${c.nodeId}/paths`, c.deviceToken)).body.items;
    expect(cPaths).toEqual([expect.objectContaining({ peerNodeId: d.nodeId, path: "unknown", via: null })]);
    // And a device reads only its own node's paths.
    expect((await get(`/nodes/${a.nodeId}/paths`, c.deviceToken)).status).toBe(404);
    expect((await get(`/nodes/${b.nodeId}/paths`, a.deviceToken)).status).toBe(404);
  });
});

function byAddress(x: string, y: string) {
  const key = (prefix: string) =>
    prefix
      .split("/")[0]!
      .split(".")
      .reduce((sum, part) => sum * 256 + Number(part), 0);
  return key(x) - key(y);
}
