// "Who can reach this node and why" (sources.ts) held to reading every rule for every pair: over random
// networks and policies, each node that may send the destination something is listed once, with exactly
// those ports, and its allows less its denies give back those ports (the "why" explains the whole answer).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CompiledAccess } from "../../src/core/access-policy/compile";
import { formatPorts, isNoTraffic, joinPorts, NO_PORTS, type PortSet, subtractPorts } from "../../src/core/access-policy/ports";
import { type AccessRule, parseRules } from "../../src/core/access-policy/rules";
import { type AccessSubject, hostPrefix, selectsNode } from "../../src/core/access-policy/selectors";
import { accessSourcesOf } from "../../src/core/access-policy/sources";

const TAGS = ["tag:web", "tag:dev", "tag:ops"];
const PORTS = ["*", "icmp", "tcp", "tcp:22", "tcp:20-30", "tcp:443", "udp:53"];

const networkArb = fc.integer({ min: 2, max: 10 }).chain((count) => {
  const selectors = ["*", ...TAGS, "role:member", "10.0.0.0/30", "10.0.0.4/30"];
  for (let i = 0; i < count; i++) selectors.push(`node:node_${i}`);
  const node = (i: number) =>
    fc
      .record({ tags: fc.subarray(TAGS), ownerRole: fc.constantFrom(null, "member" as const) })
      .map((n): AccessSubject => ({ id: `node_${i}`, address: `10.0.0.${i + 1}`, ownerEmail: null, ...n }));
  const rule = fc.record({
    action: fc.constantFrom("allow" as const, "allow" as const, "deny" as const),
    src: fc.subarray(selectors, { minLength: 1, maxLength: 3 }),
    dst: fc.subarray(selectors, { minLength: 1, maxLength: 3 }),
    ports: fc.subarray(PORTS, { minLength: 1, maxLength: 3 }),
  });
  return fc.tuple(fc.tuple(...Array.from({ length: count }, (_, i) => node(i))), fc.array(rule, { maxLength: 8 }));
});

const selects = (side: AccessRule["src"], node: AccessSubject) => side.some((s) => selectsNode(s, node, hostPrefix(node.address)));
const join = (rules: AccessRule[]): PortSet => rules.reduce((set, rule) => joinPorts(set, rule.ports), NO_PORTS);

describe("access sources equal reading every rule for every pair", () => {
  it("lists each allowed source once with its ports, and the rules it names give back exactly those ports", () => {
    fc.assert(
      fc.property(networkArb, ([nodes, texts]) => {
        const parsed = parseRules(texts);
        if (!parsed.ok) throw new Error("rules");
        const compiled = new CompiledAccess(nodes, parsed.rules);
        for (const to of nodes) {
          const answer = accessSourcesOf(compiled, to);
          const listed = answer.sources.flatMap((group) => group.nodeIds);
          expect(new Set(listed).size).toBe(listed.length);
          let allowedCount = 0;
          for (const from of nodes) {
            if (from.id === to.id) continue;
            const both = parsed.rules.filter((rule) => selects(rule.src, from) && selects(rule.dst, to));
            const reference = subtractPorts(join(both.filter((r) => r.action === "allow")), join(both.filter((r) => r.action === "deny")));
            const group = answer.sources.find((entry) => entry.nodeIds.includes(from.id));
            if (isNoTraffic(reference)) {
              expect(group).toBeUndefined();
              continue;
            }
            allowedCount++;
            expect(group?.ports).toEqual(formatPorts(reference));
            const named = (indexes: number[]) => both.filter((rule) => indexes.includes(rule.index));
            expect(named(group!.allowedBy).length).toBe(group!.allowedBy.length);
            expect(named(group!.allowedBy).every((rule) => rule.action === "allow")).toBe(true);
            expect(named(group!.deniedBy).every((rule) => rule.action === "deny")).toBe(true);
            expect(named(group!.deniedBy).length).toBe(group!.deniedBy.length);
            const explained = subtractPorts(join(named(group!.allowedBy)), join(named(group!.deniedBy)));
            expect(formatPorts(explained)).toEqual(formatPorts(reference));
          }
          expect(answer.nodesAllowed).toBe(allowedCount);
          expect(listed.length).toBe(allowedCount);
          // With ids cut at 2, every group is still there with its count and its reasons.
          const cut = accessSourcesOf(compiled, to, 2);
          expect(cut.sources.map(({ nodeIds, ...group }) => group)).toEqual(answer.sources.map(({ nodeIds, ...group }) => group));
          expect(cut.sources.flatMap((group) => group.nodeIds).length).toBe(Math.min(2, allowedCount));
          expect(cut.truncated).toBe(allowedCount > 2);
        }
      }),
      { numRuns: 150 },
    );
  });
});
