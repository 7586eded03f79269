import { describe, expect, it } from "vitest";
import { buildNodeConfig, buildTopology, configFor, PRIVATE_KEY_PLACEHOLDER } from "../../src/core/routing";
import { device, gateway, keyFor, network, policy, shuffled } from "./fixtures";

const net = network("10.0.0.0/24", { id: "net_lab", routingRevision: 12, dnsServers: ["10.0.0.53", "1.1.1.1"] });
const nodes = [
  gateway("node_g1", "10.0.0.1", { name: "edge" }),
  gateway("node_g2", "10.0.0.2", { name: "exit", endpoint: null, listenPort: null }),
  device("node_s1", "10.0.0.11", { name: "laptop" }),
  device("node_s2", "10.0.0.9", { name: "server", endpoint: "203.0.113.9:51820", listenPort: 51821 }),
  device("node_s3", "10.0.0.100", { name: "phone", routing: { mode: "none" } }),
];
const policies = [
  policy("rp_b", "192.168.50.0/24", ["node_g1", "node_g2"]),
  policy("rp_a", "172.16.0.0/12", ["node_g1"]),
  policy("rp_c", "192.168.0.0/16", ["node_g1", "node_g2"]),
];

describe("wg-quick text", () => {
  it("renders a source exactly, with keepalive only towards peers that have an endpoint", () => {
    expect(buildNodeConfig(net, nodes, policies, "node_s1").wgQuick).toBe(
      [
        "# wg-overlay: network net_lab, node node_s1, routing revision 12",
        "[Interface]",
        `PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`,
        "Address = 10.0.0.11/24",
        "DNS = 10.0.0.53, 1.1.1.1",
        "",
        "[Peer]",
        "# edge (node_g1)",
        `PublicKey = ${keyFor("node_g1")}`,
        "Endpoint = g1.example.net:51820",
        "AllowedIPs = 10.0.0.1/32, 10.0.0.2/32, 172.16.0.0/12, 192.168.0.0/16, 192.168.50.0/24",
        "PersistentKeepalive = 25",
        "",
        "[Peer]",
        "# server (node_s2)",
        `PublicKey = ${keyFor("node_s2")}`,
        "Endpoint = 203.0.113.9:51820",
        "AllowedIPs = 10.0.0.9/32",
        "PersistentKeepalive = 25",
        "",
        "[Peer]",
        "# phone (node_s3)",
        `PublicKey = ${keyFor("node_s3")}`,
        "AllowedIPs = 10.0.0.100/32",
        "",
      ].join("\n"),
    );
  });

  it("renders a deep egress with forwarding, its listen port absent and keepalive towards its parent", () => {
    expect(buildNodeConfig(net, nodes, policies, "node_g2").wgQuick).toBe(
      [
        "# wg-overlay: network net_lab, node node_g2, routing revision 12",
        "[Interface]",
        `PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`,
        "Address = 10.0.0.2/24",
        "DNS = 10.0.0.53, 1.1.1.1",
        "PostUp = sysctl -q -w net.ipv4.ip_forward=1",
        "",
        "[Peer]",
        "# edge (node_g1)",
        `PublicKey = ${keyFor("node_g1")}`,
        "Endpoint = g1.example.net:51820",
        "AllowedIPs = 10.0.0.0/24",
        "PersistentKeepalive = 25",
        "",
      ].join("\n"),
    );
  });

  it("renders the listen port and omits keepalive when this node has an endpoint", () => {
    const server = buildNodeConfig(net, nodes, policies, "node_s2");
    expect(server.wgQuick).toContain("Address = 10.0.0.9/24\nListenPort = 51821\nDNS = 10.0.0.53, 1.1.1.1\n\n[Peer]");
    expect(server.wgQuick).not.toContain("PersistentKeepalive");
    expect(server.peers.map((peer) => [peer.nodeId, peer.persistentKeepalive])).toEqual([
      ["node_g1", null],
      ["node_s1", null],
      ["node_s3", null],
    ]);
  });

  it("keeps free text from adding lines to the file", () => {
    const hostile = [...nodes, device("node_evil", "10.0.0.66", { name: "x\nPostUp = rm -rf /" })];
    const text = buildNodeConfig(net, hostile, policies, "node_s1").wgQuick;
    expect(text).toContain("# x PostUp = rm -rf / (node_evil)\n");
    expect(text.split("\n").filter((line) => line.startsWith("PostUp"))).toEqual([]);
  });
});

describe("determinism", () => {
  it("produces identical JSON and text whatever order nodes and policies arrive in", () => {
    const reference = nodes.map((node) => JSON.stringify(buildNodeConfig(net, nodes, policies, node.id)));
    for (const seed of [1, 2, 3, 4, 5]) {
      const topology = buildTopology(net, shuffled(nodes, seed), shuffled(policies, seed * 7));
      expect(nodes.map((node) => JSON.stringify(configFor(topology, node.id)))).toEqual(reference);
    }
  });

  it("orders addresses numerically, not as text", () => {
    const peers = buildNodeConfig(net, nodes, policies, "node_g1").peers.map((peer) => peer.nodeId);
    // 10.0.0.2 < 10.0.0.9 < 10.0.0.11 < 10.0.0.100, although "10.0.0.100" < "10.0.0.11" < "10.0.0.9" as strings.
    expect(peers).toEqual(["node_g2", "node_s2", "node_s1", "node_s3"]);
  });

  it("refuses to render a node that is not in the network", () => {
    expect(() => buildNodeConfig(net, nodes, policies, "node_missing")).toThrow(/not a node of this network/);
  });
});
