import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CompiledAccess, compileAccess } from "../../src/core/access-policy/compile";
import { decideFlow } from "../../src/core/access-policy/decide";
import { previewAccess } from "../../src/core/access-policy/preview";
import { carriesFlow, type Flow, formatPorts, isNoTraffic, joinPorts, NO_PORTS, subtractPorts } from "../../src/core/access-policy/ports";
import { type AccessRuleText, parseRules } from "../../src/core/access-policy/rules";
import { type AccessSubject, hostPrefix, parseSelector, selectsNode } from "../../src/core/access-policy/selectors";

const TAGS = ["tag:web", "tag:dev", "tag:ops"];
const EMAILS = [null, "ana@example.com", "bo@example.com"];
const ROLES = [null, "member", "admin"] as const;
const PORTS = ["*", "icmp", "tcp", "tcp:22", "tcp:20-30", "tcp:443", "udp:53", "udp:50-60"];
const FLOWS: Flow[] = [
  { protocol: "icmp" },
  { protocol: "tcp", port: 22 },
  { protocol: "tcp", port: 25 },
  { protocol: "tcp", port: 443 },
  { protocol: "tcp", port: 8080 },
  { protocol: "udp", port: 53 },
  { protocol: "udp", port: 55 },
];

const nodeArb = (i: number) =>
  fc
    .record({
      tags: fc.subarray(TAGS),
      ownerEmail: fc.constantFrom(...EMAILS),
      ownerRole: fc.constantFrom(...ROLES),
    })
    .map((n): AccessSubject => ({ id: `node_${i}`, address: `10.0.0.${i + 1}`, ...n }));

const networkArb = fc.integer({ min: 2, max: 12 }).chain((count) => {
  const selectors = ["*", ...TAGS, "user:ana@example.com", "role:member", "role:admin", "10.0.0.0/30", "10.0.0.4/30", "10.0.0.0/29"];
  for (let i = 0; i < count; i++) selectors.push(`node:node_${i}`);
  const rule = fc.record({
    action: fc.constantFrom("allow" as const, "allow" as const, "deny" as const),
    src: fc.subarray(selectors, { minLength: 1, maxLength: 3 }),
    dst: fc.subarray(selectors, { minLength: 1, maxLength: 3 }),
    ports: fc.subarray(PORTS, { minLength: 1, maxLength: 3 }),
  });
  return fc.tuple(fc.tuple(...Array.from({ length: count }, (_, i) => nodeArb(i))), fc.array(rule, { maxLength: 8 }));
});

/** The reference: every rule read for one pair, no classes. */
function referencePorts(rules: AccessRuleText[], from: AccessSubject, to: AccessSubject) {
  const selects = (texts: string[], node: AccessSubject) =>
    texts.some((text) => {
      const parsed = parseSelector(text);
      if (!parsed.ok) throw new Error(text);
      return selectsNode(parsed.value, node, hostPrefix(node.address));
    });
  let allowed = NO_PORTS;
  let denied = NO_PORTS;
  for (const rule of parseRules(rules).ok ? rules : []) {
    if (!selects(rule.src, from) || !selects(rule.dst, to)) continue;
    const ports = parseRules([rule]);
    if (!ports.ok) throw new Error("rule");
    if (rule.action === "allow") allowed = joinPorts(allowed, ports.rules[0]!.ports);
    else denied = joinPorts(denied, ports.rules[0]!.ports);
  }
  return subtractPorts(allowed, denied);
}

describe("compiled access equals reading every rule for every pair", () => {
  it("ports, flows, peers and inbound filters agree with the brute-force reference over random networks and policies", () => {
    fc.assert(
      fc.property(networkArb, ([nodes, texts]) => {
        const parsed = parseRules(texts);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const compiled = new CompiledAccess(nodes, parsed.rules);
        for (const to of nodes) {
          const inbound = compiled.inboundRules(to.id);
          const peers = new Set(compiled.peersOf(to.id).map((node) => node.id));
          for (const from of nodes) {
            if (from.id === to.id) continue;
            const reference = referencePorts(texts, from, to);
            expect(formatPorts(compiled.portsBetween(from.id, to.id))).toEqual(formatPorts(reference));
            for (const flow of FLOWS) {
              const decided = decideFlow("policy", parsed.rules, from, { node: to }, flow);
              expect(carriesFlow(compiled.portsBetween(from.id, to.id), flow)).toBe(decided.allowed);
            }
            const back = referencePorts(texts, to, from);
            expect(compiled.mayPeer(from.id, to.id)).toBe(!isNoTraffic(reference) || !isNoTraffic(back));
            expect(peers.has(from.id)).toBe(compiled.mayPeer(from.id, to.id));
            const entry = inbound.find((rule) => rule.from.includes(`${from.address}/32`));
            expect(entry?.ports ?? []).toEqual(isNoTraffic(reference) ? [] : formatPorts(reference));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe("preview", () => {
  it("lists exactly the peers each node gains and loses when the candidate applies, and the flows that change", () => {
    fc.assert(
      fc.property(networkArb, fc.boolean(), ([nodes, texts], fromOpen) => {
        const half = Math.floor(texts.length / 2);
        const [was, is] = [parseRules(texts.slice(0, half)), parseRules(texts.slice(half))];
        if (!was.ok || !is.ok) throw new Error("rules");
        const before = compileAccess(fromOpen ? "open" : "policy", nodes, was.rules);
        const after = compileAccess("policy", nodes, is.rules);
        const preview = previewAccess(nodes, before, after);
        for (const node of nodes) {
          const old = new Set(before.peersOf(node.id).map((n) => n.id));
          const now = new Set(after.peersOf(node.id).map((n) => n.id));
          const listed = preview.peers.find((entry) => entry.nodeId === node.id);
          expect(listed?.added ?? []).toEqual([...now].filter((id) => !old.has(id)).sort());
          expect(listed?.removed ?? []).toEqual([...old].filter((id) => !now.has(id)).sort());
        }
        for (const from of nodes) {
          for (const to of nodes) {
            if (from.id === to.id) continue;
            const gained = formatPorts(subtractPorts(after.portsBetween(from.id, to.id), before.portsBetween(from.id, to.id)));
            const flow = preview.flows.find((entry) => entry.from.includes(from.id) && entry.to.includes(to.id));
            expect(flow?.gained ?? []).toEqual(gained);
          }
        }
        expect(preview.truncated).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});
