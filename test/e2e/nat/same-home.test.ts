// Two laptops in the same home (one router, one public address, the same LAN): their heartbeats arrive from
// the same address, so the server hands each the other's LAN endpoint (the "local" candidate), and they talk
// across the LAN. The router does no hairpin NAT (few home routers do), so the post-NAT endpoint the relay
// observed would not work between them: without the LAN rule this pair would end on the relay.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/command.ts";
import { cleanupAndFindLeftovers, killLabProcesses } from "../support/lab-leftovers.ts";
import type { PingWatch } from "../gateway/ping-watch.ts";
import { canRunNatLab } from "./nat-lab.ts";
import { forwardedPackets } from "./relay-counters.ts";
import { NAT_TIMING, type NatWorld, openNatWorld } from "./nat-world.ts";

const natLab = canRunNatLab();
if (!natLab.ok) console.warn(`\n!!! SKIPPING the NAT same-home e2e: ${natLab.reason} !!!\n`);

describe.skipIf(!natLab.ok)("two laptops behind the same NAT router", () => {
  let world: NatWorld;
  let pings: PingWatch | undefined;
  beforeAll(async () => {
    world = await openNatWorld("nathome", 30, ["port-preserving", "port-preserving"], NAT_TIMING, { neighbour: true });
  });
  afterAll(async () => {
    pings?.stop();
    await world?.close();
  });

  it("`wgo up` on both; they reach each other over their LAN, directly", async () => {
    const [l1] = world.laptops;
    const l3 = world.neighbour!;
    const up = await world.bringUp(l1, l3);
    const started = up.started;
    pings = up.pings;
    await waitFor("l1's first reply from l3", () => pings!.replies().length > 0, { timeoutMs: 60_000, intervalMs: 200 }).catch(
      async (error) => {
        throw new Error(`${error.message}\n${await world.details()}`);
      },
    );
    console.log(`NAT same home: ${pings.replies()[0]! - started} ms from the first \`wgo up\` to l1's first reply from l3`);

    const lanEndpoints = [`192.168.1.3:${await l3.listenPort()}`, `${l1.home.laptopAddress}:${await l1.listenPort()}`];
    await waitFor(
      "both ends' paths to say direct",
      async () => (await world.pathBetween(l1, l3))?.path === "direct" && (await world.pathBetween(l3, l1))?.path === "direct",
      { timeoutMs: 30_000, intervalMs: 500 },
    ).catch(async (error) => {
      throw new Error(`${error.message}\n${await world.details()}`);
    });
    expect(await world.pathBetween(l1, l3)).toMatchObject({ path: "direct", endpoint: lanEndpoints[0] });
    expect(await world.pathBetween(l3, l1)).toMatchObject({ path: "direct", endpoint: lanEndpoints[1] });
    expect([await l1.endpointOf(l3.publicKey), await l3.endpointOf(l1.publicKey)], await world.details()).toEqual(lanEndpoints);
    const before = await world.counters.read();
    const repliesBefore = pings.replies().length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(pings.replies().length - repliesBefore, "pings kept flowing").toBeGreaterThan(5);
    expect(forwardedPackets(await world.counters.read()), "the relay forwarded none of them").toBe(forwardedPackets(before));
  });

  it("leaves no namespace and no process behind", async () => {
    pings?.stop();
    for (const laptop of world.all()) await laptop.stopFollowing();
    expect(await world.agent!.stop()).toBe(0);
    await killLabProcesses(world.net.lab);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await cleanupAndFindLeftovers(world.net.lab)).toEqual({ namespaces: [], processes: [] });
  });
});
