// What an access change costs the writer (issue 26, docs/access.md "Measured"): a node's config asks the
// policy about the classes it shares rules with, not about every node or class; after an access-only
// change, the nodes it left alone are found by class (AccessChange) and never wrongly: a node it calls
// unchanged has an empty delta, over random networks, gateways, routed destinations and policies.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CompiledAccess, compileAccess } from "../../src/core/access-policy/compile";
import { type AccessRuleText, parseRules } from "../../src/core/access-policy/rules";
import type { AccessSubject } from "../../src/core/access-policy/selectors";
import { buildTopology, configCoreFor, configFor, diffConfigs, type RoutingNode } from "../../src/core/routing";
import { AccessChange } from "../../src/core/routing/access-change";
import { device, gateway, network, policy } from "../routing/fixtures";

const address = (i: number) => `10.0.${i >> 8}.${i & 255}`;
const rules = (texts: AccessRuleText[]) => {
  const parsed = parseRules(texts);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fields));
  return parsed.rules;
};
const isEmpty = (delta: ReturnType<typeof diffConfigs>) =>
  Object.keys(delta).length === 6 && delta.peersUpserted.length === 0 && delta.peersRemoved.length === 0;

/** `count` devices in `teams` teams (tag:team-k), a per-node grant each for the first `grants`: many classes. */
function teamNetwork(count: number, teams: number, grants: number) {
  const nodes: RoutingNode[] = Array.from({ length: count }, (_, i) => device(`node_${i + 1}`, address(i + 1)));
  const subjects: AccessSubject[] = nodes.map((node, i) => ({
    id: node.id,
    address: node.address,
    tags: [`tag:team-${i % teams}`],
    ownerEmail: null,
    ownerRole: null,
  }));
  const texts: AccessRuleText[] = [
    ...Array.from({ length: teams }, (_, k) => ({
      action: "allow" as const,
      src: [`tag:team-${k}`],
      dst: [`tag:team-${k}`],
      ports: ["tcp:22"],
    })),
    ...Array.from({ length: grants }, (_, j) => ({
      action: "allow" as const,
      src: [`node:node_${j + 1}`],
      dst: [`node:node_${count - j}`],
      ports: ["tcp:8080"],
    })),
  ];
  return { nodes, subjects, texts };
}

afterEach(() => vi.restoreAllMocks());

describe("the cost of one node's config in policy mode", () => {
  it("asks the policy about no pair of nodes and about the classes the node shares a rule with, not every class", () => {
    const { nodes, subjects, texts } = teamNetwork(3_000, 10, 400);
    const topology = buildTopology(network("10.0.0.0/16"), nodes, [], compileAccess("policy", subjects, rules(texts)));
    const pairs = vi.spyOn(CompiledAccess.prototype, "portsBetween");
    const classPairs = vi.spyOn(CompiledAccess.prototype, "classPorts");
    // node_2000: team 9, no grant (its class shares one rule with ~10 classes of ~800).
    const config = configFor(topology, "node_2000");
    expect(config.peers).toHaveLength(299);
    expect(pairs).not.toHaveBeenCalled();
    expect(classPairs.mock.calls.length).toBeLessThan(200);
  });
});

describe("AccessChange", () => {
  it("finds exactly the nodes a one-grant change touches, and says nothing when the nodes changed too", () => {
    const { nodes, subjects, texts } = teamNetwork(600, 6, 100);
    const moved = texts.map((rule, i) => (i === 6 + 10 ? { ...rule, dst: ["node:node_300"] } : rule));
    const before = buildTopology(network("10.0.0.0/16"), nodes, [], compileAccess("policy", subjects, rules(texts)));
    const after = buildTopology(network("10.0.0.0/16", { routingRevision: 2 }), nodes, [], compileAccess("policy", subjects, rules(moved)));
    const change = new AccessChange(before, after);
    const touched = nodes.filter((node) => !change.unchanged(node.id)).map((node) => node.id);
    // The grantee, the server it lost and the one it gained.
    expect(touched).toEqual(["node_11", "node_300", "node_590"]);
    for (const id of touched) expect(isEmpty(diffConfigs(configCoreFor(before, id), configCoreFor(after, id)))).toBe(false);

    const grown = [...nodes, device("node_new", address(700))];
    const withNode = buildTopology(
      network("10.0.0.0/16", { routingRevision: 2 }),
      grown,
      [],
      compileAccess("policy", subjects, rules(moved)),
    );
    const other = new AccessChange(before, withNode);
    expect(nodes.some((node) => other.unchanged(node.id))).toBe(false);
  });

  it("calls a node unchanged only when its delta is empty, over random networks, gateways, routes and policies", () => {
    const SELECTORS = ["*", "tag:a", "tag:b", "10.0.0.0/30", "10.0.0.4/30", "192.168.1.0/24", "node:node_1", "node:node_3"];
    const rule = fc.record({
      action: fc.constantFrom("allow" as const, "allow" as const, "deny" as const),
      src: fc.subarray(
        SELECTORS.filter((s) => !s.startsWith("192")),
        { minLength: 1, maxLength: 2 },
      ),
      dst: fc.subarray(SELECTORS, { minLength: 1, maxLength: 2 }),
      ports: fc.subarray(["*", "tcp:22", "tcp:443", "udp:53"], { minLength: 1, maxLength: 2 }),
    });
    const scenario = fc.tuple(
      fc.array(fc.subarray(["tag:a", "tag:b"]), { minLength: 3, maxLength: 9 }),
      fc.array(rule, { maxLength: 6 }),
      fc.array(rule, { maxLength: 6 }),
      fc.boolean(),
    );
    fc.assert(
      fc.property(scenario, ([tags, was, is, routed]) => {
        const nodes: RoutingNode[] = tags.map((_, i) => device(`node_${i + 1}`, address(i + 1)));
        nodes.push(gateway("node_gw", address(50)));
        const subjects = nodes.map((node, i) => ({
          id: node.id,
          address: node.address,
          tags: tags[i] ?? [],
          ownerEmail: null,
          ownerRole: null,
        }));
        const policies = routed ? [policy("pol_lan", "192.168.0.0/16", ["node_gw"])] : [];
        const before = buildTopology(network("10.0.0.0/24"), nodes, policies, compileAccess("policy", subjects, rules(was)));
        const after = buildTopology(
          network("10.0.0.0/24", { routingRevision: 2 }),
          nodes,
          policies,
          compileAccess("policy", subjects, rules(is)),
        );
        const change = new AccessChange(before, after);
        for (const node of nodes) {
          if (change.unchanged(node.id))
            expect(isEmpty(diffConfigs(configCoreFor(before, node.id), configCoreFor(after, node.id)))).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
