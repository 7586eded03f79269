import { describe, expect, it } from "vitest";
import { buildTopology, configFor, type NodeConfig } from "../../src/core/routing";
import { allowedByPeer, device, gateway, network, policy } from "./fixtures";
import { walk } from "./packet-walk";

describe("device routing preferences", () => {
  const net = network("10.0.0.0/24");
  const nodes = [
    gateway("node_r", "10.0.0.1"),
    gateway("node_e", "10.0.0.2"),
    device("node_all", "10.0.0.10"),
    device("node_none", "10.0.0.11", { routing: { mode: "none" } }),
    device("node_only", "10.0.0.12", { routing: { mode: "only", policyIds: ["rp_web"] } }),
  ];
  const policies = [policy("rp_web", "0.0.0.0/0", ["node_r", "node_e"]), policy("rp_lab", "172.16.0.0/12", ["node_r"])];
  const topology = buildTopology(net, nodes, policies);
  const configs = new Map(nodes.map((node) => [node.id, configFor(topology, node.id)]));

  it("mode all: the device is a source of every policy", () => {
    expect(configs.get("node_all")!.routingIntent.map((entry) => [entry.policyId, entry.role])).toEqual([
      ["rp_lab", "source"],
      ["rp_web", "source"],
    ]);
    expect(allowedByPeer(configs.get("node_all")!)[0]).toEqual(["node_r", ["10.0.0.1/32", "10.0.0.2/32", "0.0.0.0/0", "172.16.0.0/12"]]);
  });

  it("mode none: the device only sees overlay addresses and its other traffic stays local", () => {
    const none = configs.get("node_none")!;
    expect(none.routingIntent).toEqual([]);
    expect(allowedByPeer(none)[0]).toEqual(["node_r", ["10.0.0.1/32", "10.0.0.2/32"]]);
    expect(walk(configs, "node_none", "10.0.0.11", "172.16.4.4")).toEqual({ hops: ["node_none"], end: "underlay" });
    expect(walk(configs, "node_none", "10.0.0.11", "10.0.0.2")).toEqual({ hops: ["node_none", "node_r", "node_e"], end: "delivered" });
  });

  it("mode only: the device is a source of the listed policies alone", () => {
    const only = configs.get("node_only")!;
    expect(only.routingIntent.map((entry) => entry.policyId)).toEqual(["rp_web"]);
    expect(allowedByPeer(only)[0]).toEqual(["node_r", ["10.0.0.1/32", "10.0.0.2/32", "0.0.0.0/0"]]);
    expect(walk(configs, "node_only", "10.0.0.12", "9.9.9.9")).toEqual({ hops: ["node_only", "node_r", "node_e"], end: "underlay" });
    // Routing is by destination: its 172.16/12 traffic follows the default route to node_r, and node_r,
    // the lab's egress, sends it out (a documented limit of opting out of a narrower policy).
    expect(walk(configs, "node_only", "10.0.0.12", "172.16.4.4")).toEqual({ hops: ["node_only", "node_r"], end: "underlay" });
    expect(walk(configs, "node_all", "10.0.0.10", "172.16.4.4")).toEqual({ hops: ["node_all", "node_r"], end: "underlay" });
  });

  it("ignores preferences on gateways: they are never sources", () => {
    const gatewayOptingIn = gateway("node_x", "10.0.0.3", { routing: { mode: "only", policyIds: ["rp_web"] } });
    const withGateway = buildTopology(net, [...nodes, gatewayOptingIn], policies);
    expect(configFor(withGateway, "node_x").routingIntent).toEqual([]);
    expect(allowedByPeer(configFor(withGateway, "node_x"))[0]).toEqual(["node_r", ["10.0.0.1/32", "10.0.0.2/32"]]);
  });
});

describe("an IPv6 network", () => {
  const net = network("fd00:0:0:1::/64", { dnsServers: ["fd00:0:0:1::53"] });
  const nodes = [
    gateway("node_g1", "fd00:0:0:1::1"),
    gateway("node_g2", "fd00:0:0:1::2"),
    device("node_s", "fd00:0:0:1::a", { endpoint: "[2001:db8::5]:51820" }),
  ];
  const topology = buildTopology(net, nodes, [policy("rp_v6", "2001:db8:50::/48", ["node_g1", "node_g2"])]);
  const configs = new Map<string, NodeConfig>(nodes.map((node) => [node.id, configFor(topology, node.id)]));

  it("uses /128 host prefixes, the network prefix on the interface, and compact addresses", () => {
    expect(configs.get("node_s")!.interface).toEqual({
      address: "fd00:0:0:1::a/64",
      listenPort: null,
      dns: ["fd00:0:0:1::53"],
      dnsSearch: [],
    });
    expect(allowedByPeer(configs.get("node_s")!)).toEqual([["node_g1", ["fd00:0:0:1::1/128", "fd00:0:0:1::2/128", "2001:db8:50::/48"]]]);
    expect(allowedByPeer(configs.get("node_g1")!)).toEqual([
      ["node_g2", ["fd00:0:0:1::2/128", "2001:db8:50::/48"]],
      ["node_s", ["fd00:0:0:1::a/128"]],
    ]);
    expect(allowedByPeer(configs.get("node_g2")!)).toEqual([["node_g1", ["fd00:0:0:1::/64"]]]);
  });

  it("enables IPv6 forwarding on gateways and carries traffic both ways", () => {
    expect(configs.get("node_g2")!.wgQuick).toContain("PostUp = sysctl -q -w net.ipv6.conf.all.forwarding=1\n");
    expect(configs.get("node_s")!.wgQuick).not.toContain("PostUp");
    expect(walk(configs, "node_s", "fd00:0:0:1::a", "2001:db8:50::1")).toEqual({ hops: ["node_s", "node_g1", "node_g2"], end: "underlay" });
    expect(walk(configs, "node_g2", "2001:db8:50::1", "fd00:0:0:1::a")).toEqual({
      hops: ["node_g2", "node_g1", "node_s"],
      end: "delivered",
    });
  });
});
