// Issue 28's first proof: two laptops in two homes, each behind a port-preserving NAT router (no port
// forwarding), run only `wgo up` and wgo's heartbeat service. The server learns each laptop's post-NAT
// endpoint from what the public relay gateway observes, hands each side the other's with a keepalive, and
// both open their NAT (simultaneous open): they ping each other directly, the relay forwards nothing. Then a
// home router forgets its mappings (conntrack flush) and the pair recovers within a bound measured here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, killLabProcesses } from "../support/lab-leftovers.ts";
import { watchPing, type PingWatch } from "../gateway/ping-watch.ts";
import { canRunNatLab } from "./nat-lab.ts";
import { outageAround } from "./outage.ts";
import { forwardedPackets } from "./relay-counters.ts";
import { NAT_TIMING, type NatWorld, openNatWorld } from "./nat-world.ts";

const natLab = canRunNatLab();
if (!natLab.ok) console.warn(`\n!!! SKIPPING the NAT direct-path e2e: ${natLab.reason} !!!\n`);

// After a router loses its mappings, the laptop behind it sends again at the latest at its persistent
// keepalive (25 s, the contract's value), which re-opens the mapping; plus a handshake retry (5 s) and
// 10 s for a loaded machine. Measured on this machine it is printed below.
const RECOVERY_BOUND_MS = 40_000;

describe.skipIf(!natLab.ok)("two laptops behind two port-preserving NATs", () => {
  let world: NatWorld;
  let pings: PingWatch | undefined;
  beforeAll(async () => {
    world = await openNatWorld("natdirect", 28, ["port-preserving", "port-preserving"], NAT_TIMING);
  });
  afterAll(async () => {
    pings?.stop();
    await world?.close();
  });

  it("`wgo up` on both; they ping each other with no port forwarding", async () => {
    const [l1, l2] = world.laptops;
    const up = await world.bringUp(l1, l2);
    const started = up.started;
    pings = up.pings;
    await waitFor("l1's first reply from l2", () => pings!.replies().length > 0, {
      timeoutMs: 60_000,
      intervalMs: 200,
      details: () => "see the paths and mappings below",
    }).catch(async (error) => {
      throw new Error(`${error.message}\n${await world.details()}`);
    });
    const firstReply = pings.replies()[0]! - started;
    console.log(
      `NAT direct: ${firstReply} ms from the first \`wgo up\` to l1's first reply from l2 (both behind port-preserving NAT; \`wgo up\` took ${l1.upMs} and ${l2.upMs} ms)`,
    );
    expect(await l2.home.laptop.ping(l1.overlay, 3), "and back").toBe(true);
  });

  it("the path is direct: each side's WireGuard endpoint is the other's router, the relay forwards nothing", async () => {
    const [l1, l2] = world.laptops;
    // The router kept each laptop's port, so the NAT address is <router WAN>:<laptop's listen port>.
    const expected = [`${l2.home.wanAddress}:${await l2.listenPort()}`, `${l1.home.wanAddress}:${await l1.listenPort()}`];
    expect([await l1.endpointOf(l2.publicKey), await l2.endpointOf(l1.publicKey)], await world.details()).toEqual(expected);
    await waitFor(
      "the server to call both directions direct",
      async () => (await world.pathBetween(l1, l2))?.path === "direct" && (await world.pathBetween(l2, l1))?.path === "direct",
      { timeoutMs: 30_000, intervalMs: 500 },
    ).catch(async (error) => {
      throw new Error(`${error.message}\n${await world.details()}`);
    });
    expect(await world.pathBetween(l1, l2)).toMatchObject({ path: "direct", via: null, endpoint: expected[0] });
    expect(await world.pathBetween(l2, l1)).toMatchObject({ path: "direct", via: null, endpoint: expected[1] });
    // l1–l2 at least (each laptop's pair with the relay gateway counts too once a heartbeat reported its
    // handshake: 2 or 3 seen, by timing); nothing relayed. /metrics has these figures from the network's presence
    // check, about once a minute (docs/metrics.md "Hot state"): bound 90 s, one check period and 30 s of margin.
    await waitFor("/metrics to count the direct pair", async () => (await world.pairsOnPath("direct")) >= 1, {
      timeoutMs: 90_000,
      intervalMs: 2_000,
    });
    const pairs = { direct: await world.pairsOnPath("direct"), relay: await world.pairsOnPath("relay") };
    console.log(`NAT direct: /metrics wgo_network_peer_paths ${JSON.stringify(pairs)}`);
    expect(pairs.direct, '/metrics wgo_network_peer_paths{path="direct"}').toBeGreaterThanOrEqual(1);
    expect(pairs.relay, '/metrics wgo_network_peer_paths{path="relay"}').toBe(0);

    const before = await world.counters.read();
    const repliesBefore = pings!.replies().length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = await world.counters.read();
    console.log(
      `NAT direct: relay forwarded ${forwardedPackets(after)} packets between the laptops in total; ${pings!.replies().length - repliesBefore} replies in 3 s`,
    );
    expect(pings!.replies().length - repliesBefore, "pings kept flowing").toBeGreaterThan(5);
    expect(forwardedPackets(after), "the relay forwarded none of them").toBe(forwardedPackets(before));
    expect(forwardedPackets(after)).toBe(0);
  });

  it("a home router that forgets its mappings (conntrack -F): the pair recovers within the bound", async () => {
    const [l1, l2] = world.laptops;
    // Traffic from l2 towards l1 only: l2's packets die at l1's router until l1 sends something itself,
    // which is what a broken mapping means for the side that did not break.
    pings?.stop();
    pings = watchPing(l2.home.laptop.namespace, l1.overlay);
    await waitFor("l2's pings to l1 to be answered", () => pings!.replies().length >= 3, { timeoutMs: 20_000, intervalMs: 200 });
    const outage = await outageAround(pings, () => world.net.flushConntrack(l1.home), 90_000);
    const path = await world.pathBetween(l2, l1);
    console.log(
      `NAT conntrack flush on r1: ${outage === null ? "no steady replies within 90 s" : `replies stopped for ${outage} ms`}; ` +
        `path then ${path?.path} (endpoint ${await l2.endpointOf(l1.publicKey)}, bound ${RECOVERY_BOUND_MS} ms)`,
    );
    expect(outage, await world.details()).not.toBeNull();
    expect(outage!).toBeLessThan(RECOVERY_BOUND_MS);
    // Recovered means the laptops reach each other again, directly or through the relay.
    expect(await l1.home.laptop.ping(l2.overlay, 3)).toBe(true);
    expect(["direct", "relay"]).toContain(path?.path);
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
