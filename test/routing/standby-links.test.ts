import { describe, expect, it } from "vitest";
import { compileAccess } from "../../src/core/access-policy/compile";
import { parseRules } from "../../src/core/access-policy/rules";
import { buildTopology, configCoreFor, diffConfigs, type RoutingPolicy } from "../../src/core/routing";
import { allowedByPeer, device, gateway, network, policy } from "./fixtures";

// Issue 27: a pool at hop 2 of G1 -> (G2 | G3) -> G4. The standby keeps tunnels with the hops beside its
// hop, so a failover changes AllowedIPs on peers every node already has, and adds or removes none.
const net = network("10.0.0.0/24");
const nodes = [
  gateway("node_g1", "10.0.0.1"),
  gateway("node_g2", "10.0.0.2"),
  gateway("node_g3", "10.0.0.3"),
  gateway("node_g4", "10.0.0.4"),
  device("node_s1", "10.0.0.11"),
];
const D = "192.168.50.0/24";
const withActive = (active: string, standby: string): RoutingPolicy => ({
  ...policy("rp_lab", D, ["node_g1", active, "node_g4"]),
  standbys: [[], [standby], []],
});
const topologyWith = (active: string, standby: string, revision: number) =>
  buildTopology({ ...net, routingRevision: revision }, nodes, [withActive(active, standby)]);

describe("a pool's standby member", () => {
  const before = topologyWith("node_g2", "node_g3", 7);

  it("hangs below the hop before its hop, beside the active member, and holds a link with the hop after", () => {
    expect(allowedByPeer(configCoreFor(before, "node_g3"))).toEqual([
      // Its parent, as for any deep gateway: everything outside its subtree goes up.
      ["node_g1", ["10.0.0.0/24"]],
      ["node_g4", ["10.0.0.4/32"]],
    ]);
    // The hop before holds both members as children; only the active one carries the path.
    expect(allowedByPeer(configCoreFor(before, "node_g1"))).toEqual([
      ["node_g2", ["10.0.0.2/32", "10.0.0.4/32", D]],
      ["node_g3", ["10.0.0.3/32"]],
      ["node_s1", ["10.0.0.11/32"]],
    ]);
    // It forwards already: a failover then changes its peers and routes, not its sysctls.
    expect(configCoreFor(before, "node_g3").forwarding).toBe(true);
    // The hop after keeps its parent (the active member) for the overlay and holds the standby directly.
    expect(allowedByPeer(configCoreFor(before, "node_g4"))).toEqual([
      ["node_g2", ["10.0.0.0/24"]],
      ["node_g3", ["10.0.0.3/32"]],
    ]);
  });

  it("keeps the tunnels warm: every gateway sends keepalives to every gateway, a new peer handshakes when configured", () => {
    const g4 = configCoreFor(before, "node_g4");
    expect(g4.peers.map((peer) => [peer.nodeId, peer.persistentKeepalive])).toEqual([
      ["node_g2", 25],
      ["node_g3", 25],
    ]);
    // A gateway does not keep a device's NAT mapping open (the device cannot be dialled; it keeps its own).
    expect(configCoreFor(before, "node_g1").peers.find((peer) => peer.nodeId === "node_s1")!.persistentKeepalive).toBeNull();
  });

  it("a failover only moves AllowedIPs, on the hops beside the pool and its members: no peer comes or goes, nothing else changes", () => {
    const after = topologyWith("node_g3", "node_g2", 8);
    for (const node of nodes) {
      const delta = diffConfigs(configCoreFor(before, node.id), configCoreFor(after, node.id));
      const held = new Set(configCoreFor(before, node.id).peers.map((peer) => peer.publicKey));
      for (const upserted of delta.peersUpserted) expect(held.has(upserted.publicKey), `${node.id} gains ${upserted.nodeId}`).toBe(true);
      expect(delta.peersRemoved, node.id).toEqual([]);
    }
    // The device reaches both members through G1 before and after: its config does not change at all.
    const device = diffConfigs(configCoreFor(before, "node_s1"), configCoreFor(after, "node_s1"));
    expect(device.peersUpserted).toEqual([]);
    // And the traffic did move: G1 sends D through G3 now, G4 answers through G3.
    expect(allowedByPeer(configCoreFor(after, "node_g1")).find(([id]) => id === "node_g3")![1]).toContain(D);
    expect(allowedByPeer(configCoreFor(after, "node_g4"))).toEqual([
      ["node_g2", ["10.0.0.2/32"]],
      ["node_g3", ["10.0.0.0/24"]],
    ]);
  });

  it("without the links a failover adds peers (what made a first handshake wait for WireGuard's retry)", () => {
    const plain = (active: string, revision: number) =>
      buildTopology({ ...net, routingRevision: revision }, nodes, [policy("rp_lab", D, ["node_g1", active, "node_g4"])]);
    const delta = diffConfigs(configCoreFor(plain("node_g2", 7), "node_g4"), configCoreFor(plain("node_g3", 8), "node_g4"));
    expect(delta.peersUpserted.map((peer) => peer.nodeId)).toEqual(["node_g3"]);
    expect(delta.peersRemoved).toEqual(["node_g2"]);
  });

  it("in policy mode too, a first hop's standby is held by the devices and holds everyone (it may carry their traffic next)", () => {
    const subjects = nodes.map((n) => ({ id: n.id, address: n.address, tags: [], ownerEmail: null, ownerRole: null }));
    const rules = parseRules([{ action: "allow", src: ["*"], dst: [D], ports: ["*"] }]);
    if (!rules.ok) throw new Error("rules");
    // A pool {G2 active, G3} at the first hop of G2 -> G4.
    const firstHop = { ...policy("rp_lab", D, ["node_g2", "node_g4"]), standbys: [["node_g3"], []] };
    const topology = buildTopology(net, nodes, [firstHop], compileAccess("policy", subjects, rules.rules));
    expect(configCoreFor(topology, "node_s1").peers.map((peer) => peer.nodeId)).toEqual(["node_g2", "node_g3"]);
    expect(configCoreFor(topology, "node_g3").peers.map((peer) => peer.nodeId)).toEqual(["node_g1", "node_g2", "node_g4", "node_s1"]);
  });
});
