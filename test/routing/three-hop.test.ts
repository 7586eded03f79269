import { describe, expect, it } from "vitest";
import { buildTopology, configFor, type NodeConfig } from "../../src/core/routing";
import { allowedByPeer, device, gateway, network, policy } from "./fixtures";
import { walk } from "./packet-walk";

// The worked example of docs/routing.md: sources S1, S2 reach 192.168.50.0/24 through G1 -> G2 -> G3.
const net = network("10.0.0.0/24");
const nodes = [
  gateway("node_g1", "10.0.0.1"),
  gateway("node_g2", "10.0.0.2"),
  gateway("node_g3", "10.0.0.3"),
  device("node_s1", "10.0.0.11"),
  device("node_s2", "10.0.0.12"),
];
const D = "192.168.50.0/24";

function configs(path: string[]): Map<string, NodeConfig> {
  const topology = buildTopology(net, nodes, [policy("rp_lab", D, path)]);
  return new Map(nodes.map((node) => [node.id, configFor(topology, node.id)]));
}

describe("a three-hop policy", () => {
  const all = configs(["node_g1", "node_g2", "node_g3"]);

  it("gives each source the whole path's addresses and the destination on the first hop", () => {
    expect(allowedByPeer(all.get("node_s1")!)).toEqual([
      ["node_g1", ["10.0.0.1/32", "10.0.0.2/32", "10.0.0.3/32", D]],
      ["node_s2", ["10.0.0.12/32"]],
    ]);
    expect(allowedByPeer(all.get("node_s2")!)).toEqual([
      ["node_g1", ["10.0.0.1/32", "10.0.0.2/32", "10.0.0.3/32", D]],
      ["node_s1", ["10.0.0.11/32"]],
    ]);
  });

  it("makes the first hop a root: its child carries the rest of the path and D", () => {
    expect(allowedByPeer(all.get("node_g1")!)).toEqual([
      ["node_g2", ["10.0.0.2/32", "10.0.0.3/32", D]],
      ["node_s1", ["10.0.0.11/32"]],
      ["node_s2", ["10.0.0.12/32"]],
    ]);
  });

  it("sends everything else up from deep gateways and gives the egress no route for D", () => {
    expect(allowedByPeer(all.get("node_g2")!)).toEqual([
      ["node_g1", ["10.0.0.0/24"]],
      ["node_g3", ["10.0.0.3/32", D]],
    ]);
    expect(allowedByPeer(all.get("node_g3")!)).toEqual([["node_g2", ["10.0.0.0/24"]]]);
  });

  it("states each node's role, neighbours and forwarding", () => {
    const entry = { policyId: "rp_lab", name: `to ${D}`, destinationCidr: D, path: ["node_g1", "node_g2", "node_g3"] };
    expect(all.get("node_s1")!.routingIntent).toEqual([{ ...entry, role: "source", previousHop: null, nextHop: "node_g1" }]);
    expect(all.get("node_g1")!.routingIntent).toEqual([{ ...entry, role: "transit", previousHop: null, nextHop: "node_g2" }]);
    expect(all.get("node_g2")!.routingIntent).toEqual([{ ...entry, role: "transit", previousHop: "node_g1", nextHop: "node_g3" }]);
    expect(all.get("node_g3")!.routingIntent).toEqual([{ ...entry, role: "egress", previousHop: "node_g2", nextHop: null }]);
    expect([...all.values()].filter((config) => config.forwarding).map((config) => config.nodeId)).toEqual([
      "node_g1",
      "node_g2",
      "node_g3",
    ]);
  });

  it("carries policy traffic through every gateway in order and the replies back the same way", () => {
    expect(walk(all, "node_s2", "10.0.0.12", "192.168.50.9")).toEqual({
      hops: ["node_s2", "node_g1", "node_g2", "node_g3"],
      end: "underlay",
    });
    expect(walk(all, "node_g3", "192.168.50.9", "10.0.0.12")).toEqual({
      hops: ["node_g3", "node_g2", "node_g1", "node_s2"],
      end: "delivered",
    });
  });

  it("keeps node-to-node traffic symmetric, including to deep gateways", () => {
    expect(walk(all, "node_s1", "10.0.0.11", "10.0.0.3")).toEqual({ hops: ["node_s1", "node_g1", "node_g2", "node_g3"], end: "delivered" });
    expect(walk(all, "node_g3", "10.0.0.3", "10.0.0.11")).toEqual({ hops: ["node_g3", "node_g2", "node_g1", "node_s1"], end: "delivered" });
    expect(walk(all, "node_s1", "10.0.0.11", "10.0.0.12")).toEqual({ hops: ["node_s1", "node_s2"], end: "delivered" });
  });
});

describe("changing the path to G1 -> G3", () => {
  const short = configs(["node_g1", "node_g3"]);

  it("moves G3 under G1 and returns G2 to the flat mesh", () => {
    expect(allowedByPeer(short.get("node_s1")!)).toEqual([
      ["node_g1", ["10.0.0.1/32", "10.0.0.3/32", D]],
      ["node_g2", ["10.0.0.2/32"]],
      ["node_s2", ["10.0.0.12/32"]],
    ]);
    expect(allowedByPeer(short.get("node_g1")!)).toEqual([
      ["node_g2", ["10.0.0.2/32"]],
      ["node_g3", ["10.0.0.3/32", D]],
      ["node_s1", ["10.0.0.11/32"]],
      ["node_s2", ["10.0.0.12/32"]],
    ]);
    expect(allowedByPeer(short.get("node_g2")!)).toEqual([
      ["node_g1", ["10.0.0.1/32", "10.0.0.3/32"]],
      ["node_s1", ["10.0.0.11/32"]],
      ["node_s2", ["10.0.0.12/32"]],
    ]);
    expect(allowedByPeer(short.get("node_g3")!)).toEqual([["node_g1", ["10.0.0.0/24"]]]);
  });

  it("updates intent and forwarding: G2 no longer takes part", () => {
    expect(short.get("node_g2")!.routingIntent).toEqual([]);
    expect(short.get("node_g2")!.forwarding).toBe(false);
    expect(short.get("node_g3")!.routingIntent[0]).toMatchObject({ role: "egress", previousHop: "node_g1", nextHop: null });
    expect(walk(short, "node_s1", "10.0.0.11", "192.168.50.1")).toEqual({ hops: ["node_s1", "node_g1", "node_g3"], end: "underlay" });
  });
});
