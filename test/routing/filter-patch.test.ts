// Inbound filter patches (routing/filter-patch.ts): a delta carries a changed filter entry by entry when
// that is shorter, and applying it gives exactly the new filter, order included.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyInboundPatch, patchInboundRules } from "../../src/core/routing/filter-patch";
import { filterPairArb } from "../helpers/inbound-filters";

const hosts = (from: number, count: number) => Array.from({ length: count }, (_, i) => `10.1.${(from + i) >> 8}.${(from + i) & 255}/32`);

describe("inbound filter patches", () => {
  it("applied to the held filter give the new one exactly, for random filters and edits (IPv4 and IPv6)", () => {
    let patched = 0;
    fc.assert(
      fc.property(fc.boolean().chain(filterPairArb), ([held, next]) => {
        const patch = patchInboundRules(held, next);
        if (!patch) return;
        patched++;
        expect(applyInboundPatch(held, patch)).toEqual(next);
        expect(JSON.stringify(patch).length).toBeLessThan(JSON.stringify(next).length);
      }),
      { numRuns: 500 },
    );
    // The property is about patches, so many runs must make one: about half do (a successor that drops or
    // adds whole entries is sent whole); 150 of 500 is nine standard deviations below that.
    expect(patched).toBeGreaterThan(150);
  });

  it("moving one source of a 2,000-source entry costs that source, not the entry", () => {
    const held = [
      { ports: ["tcp:443"], from: hosts(10, 2000) },
      { ports: ["tcp:5432"], from: hosts(3000, 40) },
    ];
    const next = [
      { ports: ["tcp:443"], from: hosts(10, 2000).filter((prefix) => prefix !== "10.1.0.50/32") },
      // 10.1.0.50 sorts before 10.1.11.184, the first of these 40.
      { ports: ["tcp:5432"], from: ["10.1.0.50/32", ...hosts(3000, 40)] },
      { ports: ["udp:53"], from: ["10.1.0.9/32"] },
    ];
    const patch = patchInboundRules(held, next)!;
    expect(patch).toEqual([
      { ports: ["tcp:443"], fromAdded: [], fromRemoved: ["10.1.0.50/32"] },
      { ports: ["tcp:5432"], fromAdded: ["10.1.0.50/32"], fromRemoved: [] },
      { ports: ["udp:53"], from: ["10.1.0.9/32"] },
    ]);
    expect(JSON.stringify(patch).length).toBeLessThan(200);
    expect(applyInboundPatch(held, patch)).toEqual(next);
  });

  it("sends the filter whole when a patch would not be shorter or not exact, and refuses to edit what is not held", () => {
    const small = [{ ports: ["tcp:22"], from: ["10.0.0.1/32"] }];
    expect(patchInboundRules(small, [{ ports: ["tcp:443"], from: ["10.0.0.2/32"] }])).toBeNull();
    const twice = [
      { ports: ["tcp:22"], from: hosts(1, 50) },
      { ports: ["tcp:22"], from: hosts(100, 50) },
    ];
    expect(patchInboundRules(twice, twice.slice(0, 1))).toBeNull();
    expect(() => applyInboundPatch(small, [{ ports: ["udp:53"], fromAdded: ["10.0.0.3/32"] }])).toThrow(/lacks/);
  });
});
