// Issue 28's second proof: one laptop behind a port-preserving NAT, the other behind a symmetric one
// (`masquerade fully-random`: a new port per destination, so the endpoint the relay observes is useless to
// the other laptop). Direct never works (nat-lab.test.ts shows that with plain wireguard-go); after
// NAT_DIRECT_TIMEOUT_SECONDS the server moves the pair onto the public relay gateway: each side keeps the
// other's peer (endpoint, keepalive: direct is still tried) with no AllowedIPs, and reaches the other's
// address through the relay's peer. The relay (`wgo gateway run`) forwards between the two.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, killLabProcesses } from "../support/lab-leftovers.ts";
import type { PingWatch } from "../gateway/ping-watch.ts";
import { canRunNatLab } from "./nat-lab.ts";
import { forwardedPackets } from "./relay-counters.ts";
import { NAT_TIMING, type NatWorld, openNatWorld } from "./nat-world.ts";

const natLab = canRunNatLab();
if (!natLab.ok) console.warn(`\n!!! SKIPPING the NAT relay-path e2e: ${natLab.reason} !!!\n`);

// The direct timeout (10 s here), a heartbeat or two to report it (2 s each), the delta applied by both
// laptops' long polls, and the first ping across: 60 s leaves a loaded 2-core machine room.
const FIRST_REPLY_BOUND_MS = 60_000;

describe.skipIf(!natLab.ok)("a laptop behind a symmetric NAT and one behind a port-preserving NAT", () => {
  let world: NatWorld;
  let pings: PingWatch | undefined;
  let started = 0;
  beforeAll(async () => {
    world = await openNatWorld("natrelay", 29, ["port-preserving", "fully-random"], NAT_TIMING);
  });
  afterAll(async () => {
    pings?.stop();
    await world?.close();
  });

  it("`wgo up` on both; the server moves the pair onto the relay and they ping through it", async () => {
    const [l1, l2] = world.laptops;
    ({ started, pings } = await world.bringUp(l1, l2));
    await waitFor("l1's first reply from l2", () => pings!.replies().length > 0, {
      timeoutMs: FIRST_REPLY_BOUND_MS,
      intervalMs: 200,
    }).catch(async (error) => {
      throw new Error(`${error.message}\n${await world.details()}`);
    });
    const firstReply = pings.replies()[0]! - started;
    console.log(
      `NAT relay: ${firstReply} ms from the first \`wgo up\` to l1's first reply from l2 (l2 behind fully-random NAT; ` +
        `direct timeout ${NAT_TIMING.NAT_DIRECT_TIMEOUT_SECONDS} s; \`wgo up\` took ${l1.upMs} and ${l2.upMs} ms)`,
    );
    expect(await l2.home.laptop.ping(l1.overlay, 3), "and back").toBe(true);
  });

  it("GET /nodes/:id/paths says relay via the relay gateway, for both ends", async () => {
    const [l1, l2] = world.laptops;
    const relayed = async () => {
      const [one, two] = [await world.pathBetween(l1, l2), await world.pathBetween(l2, l1)];
      return one?.path === "relay" && two?.path === "relay";
    };
    await waitFor("both ends' paths to say relay", relayed, { timeoutMs: 20_000, intervalMs: 500 }).catch(async (error) => {
      throw new Error(`${error.message}\n${await world.details()}`);
    });
    for (const [from, to] of [
      [l1, l2],
      [l2, l1],
    ] as const) {
      expect(await world.pathBetween(from, to)).toMatchObject({ path: "relay", via: { nodeId: world.relayNodeId, name: "relay" } });
    }
    // One pair relayed (l1–l2); the laptops' pairs with the relay itself are direct (once reported).
    const pairs = { relay: await world.pairsOnPath("relay"), direct: await world.pairsOnPath("direct") };
    console.log(`NAT relay: /metrics wgo_network_peer_paths ${JSON.stringify(pairs)}`);
    expect(pairs.relay, '/metrics wgo_network_peer_paths{path="relay"}').toBe(1);
  });

  it("each laptop routes the other through the relay's peer and keeps trying direct (endpoint, keepalive, no AllowedIPs)", async () => {
    const [l1, l2] = world.laptops;
    const relayKey = await world.relayPublicKey();
    for (const [me, other] of [
      [l1, l2],
      [l2, l1],
    ] as const) {
      const why = await world.details();
      expect(await me.allowedIpsOf(other.publicKey), why).toEqual([]);
      expect(await me.allowedIpsOf(relayKey), why).toContain(`${other.overlay}/32`);
      expect(await me.keepaliveOf(other.publicKey), why).toBe(25);
      expect(await me.endpointOf(other.publicKey), why).not.toBeNull();
    }
  });

  it("the relay forwards the pair's traffic both ways, and the pair stays on it (no flapping back to a dead direct path)", async () => {
    const [l1, l2] = world.laptops;
    const before = await world.counters.read();
    const from = Date.now();
    const repliesBefore = pings!.replies().length;
    // Longer than a few heartbeats: a server that tried the direct path again too early would show here as a
    // gap in the replies (the address moved off the relay's peer) or a path other than relay.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const replies = pings!.replies().length - repliesBefore; // each one crossed the relay before it arrived
    const after = await world.counters.read();
    const gap = pings!.longestGap(from, Date.now());
    console.log(
      `NAT relay counters (nft, relay's forward hook): l1→l2 ${after.oneToTwo.packets} packets / ${after.oneToTwo.bytes} B, ` +
        `l2→l1 ${after.twoToOne.packets} packets / ${after.twoToOne.bytes} B; ${replies} replies in 10 s, longest gap ${gap?.ms} ms; ` +
        `relay WireGuard per laptop ${JSON.stringify(await world.relayPeerCounters())}`,
    );
    expect(replies, "pings kept flowing").toBeGreaterThan(25);
    // Each request and each reply crossed the relay (give or take the one or two in flight at the first read).
    expect(after.oneToTwo.packets - before.oneToTwo.packets).toBeGreaterThanOrEqual(replies - 2);
    expect(after.twoToOne.packets - before.twoToOne.packets).toBeGreaterThanOrEqual(replies - 2);
    expect(forwardedPackets(after)).toBeGreaterThan(forwardedPackets(before));
    expect(gap!.ms, "no outage while relayed").toBeLessThan(1_000);
    expect((await world.pathBetween(l1, l2))?.path).toBe("relay");
    expect((await world.pathBetween(l2, l1))?.path).toBe("relay");
  });

  it("when l2's router starts preserving ports, the pair goes back to direct after the hold, and the relay stops forwarding", async () => {
    const [l1, l2] = world.laptops;
    // The home router is replaced (its mappings with it): the relay now sees l2 at its own port, the server
    // hands that to l1, the direct attempts that never stopped succeed, and once both ends report the direct
    // handshake and NAT_RELAY_HOLD_SECONDS have passed since the move, the pair leaves the relay.
    const changed = Date.now();
    await world.net.setNat(l2.home, "port-preserving");
    await world.net.flushConntrack(l2.home);
    const direct = async () => (await world.pathBetween(l1, l2))?.path === "direct" && (await world.pathBetween(l2, l1))?.path === "direct";
    // Up to 25 s until l2's keepalive shows the relay its new port; the relay taught the old one, so the server
    // takes the new one at once (src/objects/network/nat/learn.ts), hands it out, the two sides' keepalives (the
    // only packets on a peer with no AllowedIPs) meet, both report the handshake, and the hold passes since the
    // move: 83 and 91 s seen when the server still held the old endpoint 60 s (before that rule).
    await waitFor("both ends' paths to say direct", direct, { timeoutMs: 150_000, intervalMs: 500 }).catch(async (error) => {
      throw new Error(`${error.message}\n${await world.details()}`);
    });
    const back = Date.now() - changed;
    const endpoint = `${l2.home.wanAddress}:${await l2.listenPort()}`;
    await waitFor("l1 to route l2 on l2's own peer again", async () => (await l1.allowedIpsOf(l2.publicKey)).includes(`${l2.overlay}/32`), {
      timeoutMs: 15_000,
      intervalMs: 250,
    });
    expect(await l1.endpointOf(l2.publicKey)).toBe(endpoint);
    expect(await l1.home.laptop.ping(l2.overlay, 3), "and l1 reaches l2").toBe(true);
    const before = await world.counters.read();
    const repliesBefore = pings!.replies().length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = await world.counters.read();
    console.log(
      `NAT relay → direct: ${back} ms from the NAT change to both paths direct (hold ${NAT_TIMING.NAT_RELAY_HOLD_SECONDS} s); ` +
        `${pings!.replies().length - repliesBefore} replies in 3 s, relay forwarded ${forwardedPackets(after) - forwardedPackets(before)} packets`,
    );
    expect(pings!.replies().length - repliesBefore, "pings flow").toBeGreaterThan(5);
    expect(forwardedPackets(after), "the relay forwards none of them").toBe(forwardedPackets(before));
  });

  it("leaves no namespace and no process behind", async () => {
    pings?.stop();
    for (const laptop of world.laptops) await laptop.stopFollowing();
    expect(await world.agent!.stop()).toBe(0);
    await killLabProcesses(world.net.lab);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await cleanupAndFindLeftovers(world.net.lab)).toEqual({ namespaces: [], processes: [] });
  });
});
