// A delta applied to the config a client holds gives exactly the config the server would send whole
// (JSON and wg-quick text), over random networks and random changes between two revisions.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyConfigDelta,
  buildTopology,
  configCoreFor,
  configFor,
  diffConfigs,
  type RoutingNode,
  type RoutingPolicy,
} from "../../src/core/routing";
import { device, gateway, keyFor, network, policy } from "./fixtures";

interface Scenario {
  cidr: string;
  revision: number;
  nodes: RoutingNode[];
  policies: RoutingPolicy[];
}

const GATEWAYS = ["node_g1", "node_g2", "node_g3", "node_g4"];
const DESTINATIONS = ["172.16.0.0/16", "172.17.1.0/24", "192.168.0.0/16", "0.0.0.0/0", "10.99.0.0/16"];

const hostIn = (cidr: string, index: number) =>
  cidr.includes(":") ? `fd00::${(index + 1).toString(16)}` : `10.0.${Math.floor((index + 1) / 250)}.${((index + 1) % 250) + 1}`;

const routingOf = (choice: number, policyIds: string[]): RoutingNode["routing"] =>
  choice === 0 ? { mode: "all" } : choice === 1 ? { mode: "none" } : { mode: "only", policyIds: policyIds.slice(0, choice - 1) };

/** One network: gateways, devices with endpoints or not and with each routing mode, and policies through the gateways. */
const scenario = (cidr: string) =>
  fc
    .record({
      devices: fc.uniqueArray(fc.integer({ min: 10, max: 60 }), { minLength: 1, maxLength: 12 }),
      endpoints: fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
      routing: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 60, maxLength: 60 }),
      paths: fc.array(
        fc.tuple(fc.integer({ min: 0, max: DESTINATIONS.length - 1 }), fc.shuffledSubarray(GATEWAYS, { minLength: 1, maxLength: 3 })),
        {
          maxLength: 4,
        },
      ),
      revision: fc.integer({ min: 1, max: 1000 }),
    })
    .map(({ devices, endpoints, routing, paths, revision }): Scenario => {
      const policies = paths.map(([destination, path], index) => policy(`rp_${index}`, DESTINATIONS[destination]!, path));
      const policyIds = policies.map((p) => p.id);
      const nodes = [
        ...GATEWAYS.map((id, index) => gateway(id, hostIn(cidr, index))),
        ...devices.map((slot) =>
          device(`node_d${slot}`, hostIn(cidr, slot), {
            endpoint: endpoints[slot]! ? `203.0.113.${slot}:51820` : null,
            routing: routingOf(routing[slot]!, policyIds),
          }),
        ),
      ];
      return { cidr, revision, nodes, policies };
    });

/** What can happen between two revisions: nodes leave, arrive, move, re-key, get an endpoint, change routing. */
const changed = (before: Scenario) =>
  fc
    .record({
      drop: fc.array(fc.boolean(), { minLength: before.nodes.length, maxLength: before.nodes.length }),
      rekey: fc.array(fc.boolean(), { minLength: before.nodes.length, maxLength: before.nodes.length }),
      move: fc.array(fc.boolean(), { minLength: before.nodes.length, maxLength: before.nodes.length }),
      flipEndpoint: fc.array(fc.boolean(), { minLength: before.nodes.length, maxLength: before.nodes.length }),
      added: scenario(before.cidr),
      keepPolicies: fc.boolean(),
      step: fc.integer({ min: 1, max: 5 }),
    })
    .map(({ drop, rekey, move, flipEndpoint, added, keepPolicies, step }): Scenario => {
      const kept = before.nodes
        .map((node, i) => ({
          ...node,
          publicKey: rekey[i]! ? keyFor(`${node.id}-rekeyed`) : node.publicKey,
          address: move[i]! && !node.isGateway ? hostIn(before.cidr, 100 + i) : node.address,
          endpoint: flipEndpoint[i]! && !node.isGateway ? (node.endpoint ? null : "198.51.100.7:51820") : node.endpoint,
        }))
        .filter((node, i) => node.isGateway || !drop[i]!);
      const known = new Set(kept.map((node) => node.id));
      const arrivals = added.nodes
        .filter((node) => !known.has(node.id))
        .map((node) => ({ ...node, address: hostIn(before.cidr, 160 + Number(node.id.slice(6))) }));
      return {
        ...before,
        revision: before.revision + step,
        nodes: [...kept, ...arrivals],
        policies: keepPolicies ? before.policies : added.policies,
      };
    });

const topologyOf = (s: Scenario) => buildTopology(network(s.cidr, { routingRevision: s.revision }), s.nodes, s.policies);

describe("config deltas", () => {
  for (const cidr of ["10.0.0.0/16", "fd00::/64"]) {
    it(`applied to the old config, equal the new whole config (${cidr}, random networks and changes)`, () => {
      const pairs = scenario(cidr).chain((before) => changed(before).map((after) => ({ before, after })));
      fc.assert(
        fc.property(pairs, ({ before, after }) => {
          const old = topologyOf(before);
          const now = topologyOf(after);
          for (const nodeId of now.nodes.keys()) {
            if (!old.nodes.has(nodeId)) continue;
            const delta = diffConfigs(configCoreFor(old, nodeId), configCoreFor(now, nodeId));
            expect(applyConfigDelta(configCoreFor(old, nodeId), delta)).toEqual(configFor(now, nodeId));
          }
        }),
        { numRuns: 200 },
      );
    });
  }

  it("carry only what changed: nothing for an unchanged config, one peer for one node's new endpoint", () => {
    const nodes = [gateway("node_g1", "10.0.0.1"), ...Array.from({ length: 50 }, (_, i) => device(`node_d${i}`, `10.0.1.${i + 1}`))];
    const before = buildTopology(network("10.0.0.0/16", { routingRevision: 4 }), nodes, [policy("rp_1", "172.16.0.0/16", ["node_g1"])]);
    const moved = nodes.map((node) => (node.id === "node_d7" ? { ...node, endpoint: "203.0.113.7:51820" } : node));
    const after = buildTopology(network("10.0.0.0/16", { routingRevision: 5 }), moved, [policy("rp_1", "172.16.0.0/16", ["node_g1"])]);
    const same = diffConfigs(configCoreFor(before, "node_d3"), configCoreFor(before, "node_d3"));
    expect(same).toEqual({
      nodeId: "node_d3",
      networkId: "net_test",
      fromRevision: 4,
      routingRevision: 4,
      peersUpserted: [],
      peersRemoved: [],
    });
    const delta = diffConfigs(configCoreFor(before, "node_d3"), configCoreFor(after, "node_d3"));
    expect(delta.peersUpserted.map((peer) => peer.nodeId)).toEqual(["node_d7"]);
    expect(delta.peersRemoved).toEqual([]);
    expect(delta).not.toHaveProperty("interface");
    expect(delta).not.toHaveProperty("routingIntent");
  });

  it("refuse a config of another revision or another node", () => {
    const topology = buildTopology(network("10.0.0.0/24"), [device("node_a", "10.0.0.2"), device("node_b", "10.0.0.3")], []);
    const held = configCoreFor(topology, "node_a");
    const delta = diffConfigs(held, held);
    expect(() => applyConfigDelta({ ...held, routingRevision: 6 }, delta)).toThrow(/revision/);
    expect(() => applyConfigDelta(configCoreFor(topology, "node_b"), delta)).toThrow(/another node/);
  });
});
