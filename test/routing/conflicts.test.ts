import { describe, expect, it } from "vitest";
import { buildTopology, checkDestination, configFor, findRoutingConflicts } from "../../src/core/routing";
import { allowedByPeer, device, gateway, network, policy } from "./fixtures";

const net = network("10.0.0.0/24");
const nodes = [
  gateway("node_a", "10.0.0.1", { name: "edge-a" }),
  gateway("node_b", "10.0.0.2", { name: "edge-b" }),
  gateway("node_c", "10.0.0.3", { name: "core-c" }),
  device("node_s", "10.0.0.10"),
];

describe("findRoutingConflicts", () => {
  it("accepts paths that share a prefix of gateways, since every gateway keeps one predecessor", () => {
    const policies = [
      policy("rp_1", "192.168.1.0/24", ["node_a", "node_c"]),
      policy("rp_2", "192.168.2.0/24", ["node_a", "node_c", "node_b"]),
    ];
    expect(findRoutingConflicts(net, nodes, policies)).toEqual([]);
  });

  it("refuses a gateway reached from two different gateways", () => {
    const policies = [policy("rp_1", "192.168.1.0/24", ["node_a", "node_c"]), policy("rp_2", "192.168.2.0/24", ["node_b", "node_c"])];
    expect(findRoutingConflicts(net, nodes, policies)).toEqual([
      'Gateway "core-c" (node_c) follows gateway "edge-a" (node_a) in policy "to 192.168.1.0/24" (rp_1) ' +
        'but follows gateway "edge-b" (node_b) in policy "to 192.168.2.0/24" (rp_2); ' +
        "a gateway must have a single predecessor (the sources or one gateway) across all policies",
    ]);
  });

  it("refuses a gateway that is a first hop in one policy and a later hop in another", () => {
    const policies = [policy("rp_1", "192.168.1.0/24", ["node_a"]), policy("rp_2", "192.168.2.0/24", ["node_b", "node_a"])];
    const conflicts = findRoutingConflicts(net, nodes, policies);
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toContain(
      'Gateway "edge-a" (node_a) is the first hop of policy "to 192.168.1.0/24" (rp_1) but follows gateway "edge-b" (node_b)',
    );
  });

  it("refuses two policies with the same destination, however it is written", () => {
    const policies = [policy("rp_1", "fd00:9::/32", ["node_a"]), policy("rp_2", "fd00:9:0::/32", ["node_b"])];
    expect(findRoutingConflicts(network("fd00::/64"), nodes, policies)).toEqual([
      'policy "to fd00:9::/32" (rp_1) and policy "to fd00:9:0::/32" (rp_2) both route fd00:9::/32; a destination can have only one gateway path',
    ]);
  });

  it("does not depend on the order policies are given in", () => {
    const policies = [policy("rp_2", "192.168.2.0/24", ["node_b", "node_c"]), policy("rp_1", "192.168.1.0/24", ["node_a", "node_c"])];
    expect(findRoutingConflicts(net, nodes, policies)).toEqual(findRoutingConflicts(net, nodes, [...policies].reverse()));
    expect(findRoutingConflicts(net, nodes, policies)[0]).toMatch(/^Gateway "core-c" \(node_c\) follows gateway "edge-a"/);
  });

  it("reports malformed paths instead of crashing, and names unknown gateways by id", () => {
    expect(findRoutingConflicts(net, nodes, [policy("rp_1", "192.168.1.0/24", ["node_a", "node_a"])])[0]).toContain(
      'Gateway "edge-a" (node_a) is the first hop of policy "to 192.168.1.0/24" (rp_1) but follows gateway "edge-a" (node_a)',
    );
    expect(findRoutingConflicts(net, nodes, [policy("rp_1", "192.168.1.0/24", [])])).toEqual([]);
    const ghost = [policy("rp_1", "192.168.1.0/24", ["node_x", "node_c"]), policy("rp_2", "192.168.2.0/24", ["node_c"])];
    expect(findRoutingConflicts(net, nodes, ghost)[0]).toContain("follows gateway node_x in policy");
  });
});

describe("a topology built from conflicting rows", () => {
  it("keeps the lower policy id, skips the other, and still produces working configs", () => {
    const policies = [policy("rp_2", "192.168.2.0/24", ["node_b", "node_c"]), policy("rp_1", "192.168.1.0/24", ["node_a", "node_c"])];
    const topology = buildTopology(net, nodes, policies);
    expect(topology.skippedPolicies).toEqual([{ policyId: "rp_2", reason: "gateway node_c already has another predecessor" }]);
    expect(allowedByPeer(configFor(topology, "node_s"))).toEqual([
      ["node_a", ["10.0.0.1/32", "10.0.0.3/32", "192.168.1.0/24"]],
      ["node_b", ["10.0.0.2/32"]],
    ]);
  });

  it("skips policies naming non-gateways or destinations inside the network", () => {
    const policies = [policy("rp_1", "192.168.1.0/24", ["node_s"]), policy("rp_2", "10.0.0.128/25", ["node_a"])];
    const topology = buildTopology(net, nodes, policies);
    expect(topology.skippedPolicies.map((skipped) => skipped.policyId)).toEqual(["rp_1", "rp_2"]);
    expect(configFor(topology, "node_s").routingIntent).toEqual([]);
  });
});

describe("checkDestination", () => {
  it.each([
    ["10.0.0.0/16", "192.168.0.0/24"],
    ["10.0.0.0/16", "10.1.0.0/16"],
    ["10.0.0.0/16", "10.0.0.0/8"],
    ["10.0.0.0/16", "0.0.0.0/0"],
    ["fd00::/64", "::/0"],
    ["fd00::/64", "2001:db8::/32"],
  ])("in network %s allows %s", (networkCidr, destination) => {
    expect(checkDestination(networkCidr, destination)).toBeNull();
  });

  it.each([
    ["10.0.0.0/16", "10.0.0.0/16", "is the network itself"],
    ["10.0.0.0/16", "10.0.5.0/24", "lies inside network 10.0.0.0/16"],
    ["10.0.0.0/16", "10.0.0.7/32", "lies inside network 10.0.0.0/16"],
    ["10.0.0.0/16", "fd00::/8", "is IPv6 but network 10.0.0.0/16 is IPv4"],
    ["fd00::/64", "10.0.0.0/8", "is IPv4 but network fd00::/64 is IPv6"],
    ["fd00::/64", "fd00::/96", "lies inside network fd00::/64"],
    ["10.0.0.0/16", "10.0.0.1/8", "is not a valid CIDR"],
  ])("in network %s refuses %s (%s)", (networkCidr, destination, reason) => {
    expect(checkDestination(networkCidr, destination)).toContain(reason);
  });
});
