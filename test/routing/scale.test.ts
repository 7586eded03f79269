import { describe, expect, it } from "vitest";
import { buildNodeConfig, buildTopology, configFor, type NodeConfig, type RoutingNode, type RoutingPolicy } from "../../src/core/routing";
import { device, gateway, network, policy } from "./fixtures";
import { duplicatePrefixes } from "./packet-walk";

// 1,000 nodes in a /22: 40 gateways in 10 trees of 4 (root -> a -> b -> c), 960 devices.
const net = network("10.8.0.0/22");
const address = (i: number) => `10.8.${i >> 8}.${i & 0xff}`;
const nodes: RoutingNode[] = [];
for (let i = 1; i <= 1000; i++) {
  nodes.push(
    i <= 40 ? gateway(`node_${String(i).padStart(4, "0")}`, address(i)) : device(`node_${String(i).padStart(4, "0")}`, address(i)),
  );
}
const gatewayId = (tree: number, depth: number) => nodes[tree * 4 + depth]!.id;
// 100 policies: 10 per tree, with paths of length 1 to 4 down the tree (so every gateway is in a path).
const policies: RoutingPolicy[] = [];
const pathLength = (p: number) => (Math.floor(p / 10) % 4) + 1;
for (let p = 0; p < 100; p++) {
  const tree = p % 10;
  const length = pathLength(p);
  const path = Array.from({ length }, (_, depth) => gatewayId(tree, depth));
  policies.push(policy(`rp_${String(p).padStart(3, "0")}`, `172.${16 + (p >> 6)}.${(p & 63) * 4}.0/22`, path));
}

describe("a network of 1,000 nodes and 100 policies", () => {
  // Render time is measured by `npm run bench` (bench/render-scaling.ts), not asserted here.
  it("builds a device's config from scratch", () => {
    const config = buildNodeConfig(net, nodes, policies, "node_0500");
    // 960 devices + 10 roots - itself; the 30 deep gateways hide behind their roots.
    expect(config.peers).toHaveLength(969);
    expect(config.routingIntent).toHaveLength(100);
    expect(config.peers.find((peer) => peer.nodeId === gatewayId(0, 0))!.allowedIps).toHaveLength(4 + 10);
  });

  // A million peer entries: seconds of CPU alone, longer beside other suites on 2 cores (a bound, not a measurement).
  it("renders every config from one topology without a prefix twice on any interface", { timeout: 120_000 }, () => {
    const topology = buildTopology(net, nodes, policies);
    const configs: NodeConfig[] = nodes.map((node) => configFor(topology, node.id));
    expect(configs.flatMap(duplicatePrefixes)).toEqual([]);
    expect(configFor(topology, gatewayId(3, 2)).peers.map((peer) => peer.allowedIps)).toEqual([
      ["10.8.0.0/22"],
      [`${address(16)}/32`, ...policies.filter((_, p) => p % 10 === 3 && pathLength(p) === 4).map((rp) => rp.destinationCidr)],
    ]);
  });
});
