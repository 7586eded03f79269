// Issue 28 red team: relayed pairs reference nodes (both ends, the relay) through D1 foreign keys. A relay
// that stops relaying, deleting a relay that carries a pair, or an end of one: never a 500, and the writer's
// held copy equals a fresh load after each (as test/networks/writer-memory.test.ts holds it for every write).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import type { NetworkMemory } from "../../src/objects/network/memory/network-memory";
import { loadNetworkState, type NetworkState } from "../../src/objects/network/state";
import type { NetworkWriter } from "../../src/objects/network/network-writer";
import { networkWriter } from "../../src/objects/network/client";
import { del, get, patch } from "../helpers/api";
import { checkAt, configOf, heartbeat, keyOf, natNetwork, strandPair, peerIn, revisionOf } from "./nat-lab";

/** What NAT paths keep: the pairs, and each node's learned endpoints. */
const natPart = (state: NetworkState) => ({
  relayedPairs: state.relayedPairs,
  nodes: [...state.nodes]
    .sort((x, y) => (x.id < y.id ? -1 : 1))
    .map(({ id, localEndpoints, publicHost, observedEndpoint, observedAt, revision }) => ({
      id,
      localEndpoints,
      publicHost,
      observedEndpoint,
      observedAt,
      revision,
    })),
});

async function expectHeldEqualsFresh(networkId: string) {
  const held = await runInDurableObject(networkWriter(env, networkId), async (instance: NetworkWriter) => {
    const memory = (instance as unknown as { parts: { writes: { memory: NetworkMemory } } }).parts.writes.memory;
    return (memory as unknown as { held: { state(): NetworkState } | null }).held?.state() ?? null;
  });
  expect(held).not.toBeNull();
  expect(natPart(held!)).toEqual(natPart(await loadNetworkState(createDb(env.DB), networkId)));
}

describe("deleting nodes of relayed pairs", () => {
  it("a relay carrying a pair, then an end of a pair: 204, the pair direct then gone, memory equal to D1", async () => {
    const lab = await natNetwork();
    const { admin, network, relay, a, b } = lab;
    await strandPair(lab);
    const moved = await checkAt(network.id, Date.now() + 21_000);
    expect(moved.moves).toEqual([expect.objectContaining({ relayNodeId: relay.node.id })]);
    await expectHeldEqualsFresh(network.id);

    // The relay stops relaying: the pair is direct in every config (its row stays, memory as D1).
    expect((await patch(`/nodes/${relay.node.id}`, { relay: false }, admin.token)).status).toBe(200);
    expect(peerIn(await configOf(a.nodeId, admin.token), b.nodeId)?.allowedIps).toEqual([`${b.address}/32`]);
    expect((await checkAt(network.id, Date.now() + 25_000)).moves).toEqual([]);
    await expectHeldEqualsFresh(network.id);
    expect((await patch(`/nodes/${relay.node.id}`, { relay: true }, admin.token)).status).toBe(200);

    // The relay goes: D1 sets the pair's relay to null; the pair is direct again on both ends.
    expect((await del(`/nodes/${relay.node.id}`, admin.token)).status).toBe(204);
    await expectHeldEqualsFresh(network.id);
    expect(peerIn(await configOf(a.nodeId, admin.token), b.nodeId)?.allowedIps).toEqual([`${b.address}/32`]);
    const paths = await get(`/nodes/${a.nodeId}/paths`, admin.token);
    expect(paths.status, paths.text).toBe(200);
    expect(paths.body.items.find((item: { peerNodeId: string }) => item.peerNodeId === b.nodeId)).toMatchObject({
      path: "unknown",
      via: null,
    });
    // A check after it: nothing to move, no error.
    expect((await checkAt(network.id, Date.now() + 30_000)).moves).toEqual([]);

    // An end goes: its pair row goes with it (cascade), in D1 and in memory.
    expect((await del(`/devices/${b.deviceId}`, admin.token)).status).toBe(204);
    await expectHeldEqualsFresh(network.id);
    const pairs = await env.DB.prepare("SELECT count(*) AS n FROM relayed_pairs WHERE network_id = ?")
      .bind(network.id)
      .first<{ n: number }>();
    expect(pairs?.n).toBe(0);
    // Reports that still name the deleted node's key, and a check, change nothing and fail nothing.
    await heartbeat(a, await revisionOf(network.id, admin.token), [
      { publicKey: keyOf(b), handshakeAt: Date.now(), endpoint: "10.1.1.1:1" },
    ]);
    expect((await checkAt(network.id, Date.now() + 60_000)).moves).toEqual([]);
    await expectHeldEqualsFresh(network.id);
  });
});
