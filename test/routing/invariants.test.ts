import { describe, expect, it } from "vitest";
import { buildTopology, configFor, isSourceOf, type NodeConfig, type RoutingNode, type RoutingPolicy } from "../../src/core/routing";
import type { RelayedPair } from "../../src/core/routing/types";
import { device, gateway, network, policy } from "./fixtures";
import { duplicatePrefixes, walk } from "./packet-walk";

interface Scenario {
  cidr: string;
  nodes: RoutingNode[];
  policies: RoutingPolicy[];
  /** For each policy id, an address inside its destination that no more specific policy covers. */
  probes: Record<string, string>;
  /** Pairs the NAT clock moved onto a relay (issue 28): each end reaches the other through it. */
  relayedPairs?: RelayedPair[];
}

const v4Nodes = (gateways: string[], devices: RoutingNode[]) => [
  ...gateways.map((name, index) => gateway(`node_${name}`, `10.0.0.${index + 1}`)),
  ...devices,
];
const sources = [
  device("node_s1", "10.0.0.101"),
  device("node_s2", "10.0.0.102", { routing: { mode: "only", policyIds: ["rp_2", "rp_3"] } }),
  device("node_s3", "10.0.0.103", { routing: { mode: "none" } }),
];

const scenarios: Record<string, Scenario> = {
  "shared gateways": {
    cidr: "10.0.0.0/24",
    nodes: v4Nodes(["r", "a", "b", "c"], sources),
    policies: [
      policy("rp_1", "192.168.1.0/24", ["node_r", "node_a", "node_b"]),
      policy("rp_2", "192.168.2.0/24", ["node_r", "node_a", "node_c"]),
      policy("rp_3", "192.168.3.0/24", ["node_r"]),
      policy("rp_4", "192.168.4.0/24", ["node_r", "node_a"]),
    ],
    probes: { rp_1: "192.168.1.1", rp_2: "192.168.2.1", rp_3: "192.168.3.1", rp_4: "192.168.4.1" },
  },
  "two trees and a free gateway": {
    cidr: "10.0.0.0/24",
    nodes: v4Nodes(["r1", "x", "r2", "y", "z", "free"], sources),
    policies: [
      policy("rp_1", "172.16.0.0/16", ["node_r1", "node_x"]),
      policy("rp_2", "172.17.0.0/16", ["node_r2", "node_y", "node_z"]),
      policy("rp_3", "172.18.0.0/16", ["node_r2", "node_y"]),
    ],
    probes: { rp_1: "172.16.0.1", rp_2: "172.17.0.1", rp_3: "172.18.0.1" },
  },
  "overlapping destinations through different paths": {
    cidr: "10.0.0.0/24",
    nodes: v4Nodes(["r1", "a", "r2", "b"], sources),
    policies: [
      policy("rp_1", "10.50.0.0/16", ["node_r1", "node_a"]),
      policy("rp_2", "10.50.1.0/24", ["node_r2", "node_b"]),
      policy("rp_3", "10.50.1.128/25", ["node_r1"]),
    ],
    probes: { rp_1: "10.50.2.1", rp_2: "10.50.1.1", rp_3: "10.50.1.200" },
  },
  "a default route beside a specific one": {
    cidr: "10.0.0.0/24",
    nodes: v4Nodes(["r1", "a", "b", "r2"], sources),
    policies: [policy("rp_1", "0.0.0.0/0", ["node_r1", "node_a", "node_b"]), policy("rp_2", "10.0.0.0/8", ["node_r2"])],
    probes: { rp_1: "8.8.8.8", rp_2: "10.9.9.9" },
  },
  "pools standing by at every hop (issue 27: standby links)": {
    cidr: "10.0.0.0/24",
    nodes: v4Nodes(["r", "a", "b", "sr", "sa", "sb", "c"], sources),
    policies: [
      { ...policy("rp_1", "192.168.1.0/24", ["node_r", "node_a", "node_b"]), standbys: [["node_sr"], ["node_sa"], ["node_sb"]] },
      { ...policy("rp_2", "192.168.2.0/24", ["node_r", "node_a", "node_c"]), standbys: [["node_sr"], ["node_sa"], []] },
    ],
    probes: { rp_1: "192.168.1.1", rp_2: "192.168.2.1" },
  },
  "relayed pairs: through a free relay and through a relay that roots a chain (issue 28)": {
    cidr: "10.0.0.0/24",
    nodes: [
      gateway("node_r", "10.0.0.1", { relay: true }),
      gateway("node_a", "10.0.0.2"),
      gateway("node_relay", "10.0.0.3", { relay: true }),
      ...sources,
    ],
    policies: [policy("rp_1", "192.168.1.0/24", ["node_r", "node_a"])],
    probes: { rp_1: "192.168.1.1" },
    relayedPairs: [
      { a: "node_s1", b: "node_s2", relayId: "node_relay" },
      { a: "node_s2", b: "node_s3", relayId: "node_r" },
    ],
  },
  // Pairs stored while both ends only dialled out, whose end then changed: a gateway (here a chain's root, with
  // what lies below it) or a node given an endpoint. Relaying its own address alone would split its subtree.
  "relayed pairs whose end became a gateway or got an endpoint (issue 28)": {
    cidr: "10.0.0.0/24",
    nodes: [
      gateway("node_r", "10.0.0.1"),
      gateway("node_a", "10.0.0.2"),
      gateway("node_relay", "10.0.0.3", { relay: true }),
      ...sources,
      device("node_s4", "10.0.0.104", { endpoint: "198.51.100.4:51820" }),
    ],
    policies: [policy("rp_1", "192.168.1.0/24", ["node_r", "node_a"])],
    probes: { rp_1: "192.168.1.1" },
    relayedPairs: [
      { a: "node_s1", b: "node_r", relayId: "node_relay" },
      { a: "node_s2", b: "node_s4", relayId: "node_relay" },
    ],
  },
  "IPv6: a relayed pair beside a default route (issue 28)": {
    cidr: "fd00::/64",
    nodes: [
      gateway("node_r", "fd00::1"),
      gateway("node_a", "fd00::2"),
      gateway("node_relay", "fd00::3", { relay: true }),
      device("node_s1", "fd00::a"),
      device("node_s2", "fd00::b"),
    ],
    policies: [policy("rp_1", "::/0", ["node_r", "node_a"])],
    probes: { rp_1: "2606:4700::1111" },
    relayedPairs: [{ a: "node_s1", b: "node_s2", relayId: "node_relay" }],
  },
  "IPv6 with a default route": {
    cidr: "fd00::/64",
    nodes: [
      gateway("node_r", "fd00::1"),
      gateway("node_a", "fd00::2"),
      gateway("node_b", "fd00::3"),
      device("node_s1", "fd00::a"),
      device("node_s2", "fd00::b", { routing: { mode: "only", policyIds: ["rp_2"] } }),
    ],
    policies: [policy("rp_1", "::/0", ["node_r", "node_a"]), policy("rp_2", "2001:db8::/32", ["node_r", "node_b"])],
    probes: { rp_1: "2606:4700::1111", rp_2: "2001:db8::1" },
  },
};

function configsOf(scenario: Scenario): Map<string, NodeConfig> {
  const relayed = scenario.relayedPairs ? { relayedPairs: scenario.relayedPairs } : {};
  const topology = buildTopology(network(scenario.cidr, relayed), scenario.nodes, scenario.policies);
  expect(topology.skippedPolicies).toEqual([]);
  return new Map(scenario.nodes.map((node) => [node.id, configFor(topology, node.id)]));
}

describe.each(Object.entries(scenarios))("invariants: %s", (_, scenario) => {
  const configs = configsOf(scenario);

  it("never puts a prefix twice on one interface", () => {
    expect([...configs.values()].flatMap(duplicatePrefixes)).toEqual([]);
  });

  it("reaches every node from every node, with replies on the reverse path", () => {
    for (const from of scenario.nodes) {
      for (const to of scenario.nodes) {
        if (from === to) continue;
        const there = walk(configs, from.id, from.address, to.address);
        const back = walk(configs, to.id, to.address, from.address);
        expect(there.end, `${from.id} -> ${to.id}`).toBe("delivered");
        expect(back.hops, `${to.id} -> ${from.id}`).toEqual([...there.hops].reverse());
      }
    }
  });

  it("takes each source through its policy's full path and back, and leaves non-sources alone", () => {
    for (const { id, gatewayPath } of scenario.policies) {
      const probe = scenario.probes[id]!;
      const egress = gatewayPath[gatewayPath.length - 1]!;
      expect(configs.get(egress)!.forwarding).toBe(true);
      for (const node of scenario.nodes.filter((candidate) => !candidate.isGateway)) {
        const out = walk(configs, node.id, node.address, probe);
        if (!isSourceOf(node, id)) {
          expect(out.hops.slice(1), `${node.id} is not a source of ${id}`).not.toEqual(gatewayPath);
          continue;
        }
        expect(out, `${node.id} -> ${id}`).toEqual({ hops: [node.id, ...gatewayPath], end: "underlay" });
        const reply = walk(configs, egress, probe, node.address);
        expect(reply, `${id} -> ${node.id}`).toEqual({ hops: [...gatewayPath].reverse().concat(node.id), end: "delivered" });
      }
    }
  });
});
