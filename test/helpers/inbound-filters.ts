// Random inbound filters (accessRules) as the server compiles them, for the delta tests of the Worker
// (test/routing/filter-patch.test.ts) and of wgo (test/wgo/config-delta.test.ts): entries with distinct
// ports, sources as host prefixes in address order, and a successor that keeps, edits, drops and adds entries.
import fc from "fast-check";

export interface InboundRule {
  ports: string[];
  from: string[];
}

const PORTS = [["*"], ["tcp:443"], ["icmp", "tcp:22"], ["udp:53"], ["tcp:5432"]];

/** Host prefix n of a pool whose text order follows n (so sorting the numbers sorts the addresses). */
const prefix = (n: number, v6: boolean) => (v6 ? `fd00::${n.toString(16)}/128` : `10.0.${n >> 8}.${n & 255}/32`);
const sources = (numbers: number[], v6: boolean) => [...new Set(numbers)].sort((a, b) => a - b).map((n) => prefix(n, v6));

const entryArb = fc.record({
  ports: fc.constantFrom(...PORTS),
  from: fc.uniqueArray(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 40 }),
});

const editArb = fc.record({
  drop: fc.boolean(),
  remove: fc.uniqueArray(fc.nat(39), { maxLength: 3 }),
  add: fc.uniqueArray(fc.integer({ min: 1, max: 700 }), { maxLength: 3 }),
});

/** A filter and its successor, IPv4 or IPv6. */
export const filterPairArb = (v6: boolean) =>
  fc
    .record({
      held: fc.uniqueArray(entryArb, { selector: (entry) => entry.ports.join(","), maxLength: 4 }),
      edits: fc.array(editArb, { minLength: 4, maxLength: 4 }),
      fresh: fc.uniqueArray(entryArb, { selector: (entry) => entry.ports.join(","), maxLength: 2 }),
    })
    .map(({ held, edits, fresh }): [InboundRule[], InboundRule[]] => {
      const next = held.flatMap((entry, i) => {
        const edit = edits[i]!;
        if (edit.drop) return [];
        const kept = entry.from.filter((_, j) => !edit.remove.includes(j));
        const from = [...kept, ...edit.add];
        return from.length > 0 ? [{ ports: entry.ports, from }] : [];
      });
      const taken = new Set(next.map((entry) => entry.ports.join(",")));
      next.push(...fresh.filter((entry) => !taken.has(entry.ports.join(","))));
      const render = (entries: { ports: string[]; from: number[] }[]) =>
        entries.map((e) => ({ ports: e.ports, from: sources(e.from, v6) }));
      return [render(held), render(next)];
    });
