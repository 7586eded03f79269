// Issue 27: a path change (PUT of a new gatewayPath) loses no more than 1 s of traffic, measured as the
// failovers are: the device's ping, the longest silence from the PUT until every agent applied it. The chain
// G1 -> pool{G2, G3} -> G4 becomes G1 -> G4 and back, so each hop's peers change in both directions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/command.ts";
import { canRunDataPlane } from "../support/netns.ts";
import { applyTimeline } from "./pool-faults.ts";
import { openPoolLab, type PoolLab } from "./pool-lab.ts";
import { watchAllowedIps } from "./wg-watch.ts";

const dataPlane = canRunDataPlane();
if (!dataPlane.ok) console.warn(`\n!!! SKIPPING the gateway path change e2e: ${dataPlane.reason} !!!\n`);

// Target (issue 27, idle machine): under 1,000 ms. Asserted with a margin for a loaded 2-core CI machine
// (2.5x: the change costs every agent a long poll answer, a fetch and an apply, which load stretches).
const PATH_CHANGE_BOUND_MS = Number(process.env.PATH_CHANGE_BOUND_MS ?? 2_500);

describe.skipIf(!dataPlane.ok)("a new gatewayPath takes over without a noticeable outage", () => {
  let lab: PoolLab;
  const outages: { change: string; ms: number }[] = [];

  beforeAll(async () => {
    lab = await openPoolLab("gwpath", 64);
  });

  afterAll(async () => {
    if (outages.length > 0) console.log(`gateway path change outages: ${outages.map((o) => `${o.change} ${o.ms} ms`).join(", ")}`);
    await lab?.close();
  });

  /** PUTs `path`, waits until every agent applied it and 2 s of replies came, and returns the longest silence. */
  async function changePath(change: string, path: string[]): Promise<number> {
    await lab.waitSteady();
    const wg = watchAllowedIps(lab);
    await wg.ready;
    const at = Date.now();
    await lab.policy.setPath(path);
    await waitFor("every agent to apply the new path", () => lab.gatewaysInSync(), { timeoutMs: 30_000, details: lab.agentOutput });
    // Two seconds of replies after the PUT: a change applied within a few hundred milliseconds would otherwise find
    // two seconds of replies that came before it, and no reply after it to measure the silence by.
    await waitFor("2 s of replies after the PUT", () => Date.now() - at >= 2_000 && lab.answeredFor(2_000), {
      timeoutMs: 30_000,
      details: lab.agentOutput,
    });
    const gap = lab.pings!.longestGap(at, Date.now())!;
    const peersChanged = await wg.stop(at);
    console.log(
      `gateway path change ${change}: ${gap.ms} ms (silent from +${gap.lastBefore - at} ms after the PUT; peers changed: ${peersChanged}; applied: ${applyTimeline(lab, at)})`,
    );
    outages.push({ change, ms: gap.ms });
    return gap.ms;
  }

  it("every gateway configures itself; a device pings through G1, the active member G2, and G4", async () => {
    await lab.bringUp();
    expect(await lab.active()).toBe("g2");
  });

  it(`G1 -> pool -> G4 becomes G1 -> G4 within ${PATH_CHANGE_BOUND_MS} ms of silence`, async () => {
    const ms = await changePath("[g1, pool, g4] -> [g1, g4]", [lab.node("g1"), lab.node("g4")]);
    expect(ms).toBeLessThan(PATH_CHANGE_BOUND_MS);
  });

  it(`and back: G1 -> G4 becomes G1 -> pool -> G4 within ${PATH_CHANGE_BOUND_MS} ms`, async () => {
    const ms = await changePath("[g1, g4] -> [g1, pool, g4]", [lab.node("g1"), lab.poolId, lab.node("g4")]);
    expect(ms).toBeLessThan(PATH_CHANGE_BOUND_MS);
  });

  it("leaves no namespace or process behind", async () => {
    expect(await lab.leftovers()).toEqual({ namespaces: [], processes: [] });
  });
});
