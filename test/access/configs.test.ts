// What policy mode does to the configs the routing core renders: peers trimmed to pairs where one side
// may reach the other (gateways on paths stay), routed destinations kept only for sources the policy lets
// reach them, every node's inbound filter, a gateway's forward filter, and deltas that carry filter changes.
import { describe, expect, it } from "vitest";
import { compileAccess } from "../../src/core/access-policy/compile";
import { type AccessRuleText, parseRules } from "../../src/core/access-policy/rules";
import type { AccessSubject } from "../../src/core/access-policy/selectors";
import { applyConfigDelta, buildTopology, configCoreFor, configFor, diffConfigs } from "../../src/core/routing";
import { allowedByPeer, device, gateway, network, policy } from "../routing/fixtures";

const nodes = [
  device("node_dev", "10.0.0.2"),
  device("node_web", "10.0.0.3"),
  device("node_ops", "10.0.0.4"),
  device("node_idle", "10.0.0.5"),
  gateway("node_g1", "10.0.0.10"),
  gateway("node_g2", "10.0.0.11"),
];
const TAGS: Record<string, string[]> = { node_dev: ["tag:dev"], node_web: ["tag:web"], node_ops: ["tag:ops"] };
const subjects: AccessSubject[] = nodes.map((n) => ({
  id: n.id,
  address: n.address,
  tags: TAGS[n.id] ?? [],
  ownerEmail: null,
  ownerRole: null,
}));
const policies = [policy("pol_lan", "192.168.0.0/16", ["node_g1", "node_g2"])];

function topologyWith(texts: AccessRuleText[] | null) {
  const parsed = parseRules(texts ?? []);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fields));
  const access = texts === null ? null : compileAccess("policy", subjects, parsed.rules);
  return buildTopology(network("10.0.0.0/24"), nodes, policies, access);
}

const RULES: AccessRuleText[] = [
  { action: "allow", src: ["tag:dev"], dst: ["tag:web"], ports: ["tcp:443"] },
  { action: "allow", src: ["tag:ops"], dst: ["tag:web", "192.168.0.0/16"], ports: ["*"] },
  { action: "deny", src: ["*"], dst: ["192.168.9.0/24"], ports: ["*"] },
];

describe("configs in policy mode", () => {
  it("a node holds only the nodes it may reach or that may reach it, plus the first hops of its chains", () => {
    const topology = topologyWith(RULES);
    const peersOf = (id: string) => configFor(topology, id).peers.map((p) => p.nodeId);
    expect(peersOf("node_dev")).toEqual(["node_web", "node_g1"]);
    expect(peersOf("node_web")).toEqual(["node_dev", "node_ops", "node_g1"]);
    expect(peersOf("node_idle")).toEqual(["node_g1"]);
    // Gateways hold everyone (their own filters decide); g2 sits behind g1.
    expect(peersOf("node_g1")).toEqual(["node_dev", "node_web", "node_ops", "node_idle", "node_g2"]);
    // Only ops may reach the LAN: only ops routes it into the tunnel.
    expect(allowedByPeer(configFor(topology, "node_ops")).find(([id]) => id === "node_g1")?.[1]).toEqual([
      "10.0.0.10/32",
      "10.0.0.11/32",
      "192.168.0.0/16",
    ]);
    expect(allowedByPeer(configFor(topology, "node_dev")).find(([id]) => id === "node_g1")?.[1]).toEqual(["10.0.0.10/32", "10.0.0.11/32"]);
  });

  it("carries each node's inbound filter and each hop's forward filter; open mode carries neither", () => {
    const topology = topologyWith(RULES);
    expect(configFor(topology, "node_web").accessRules).toEqual([
      { ports: ["*"], from: ["10.0.0.4/32"] },
      { ports: ["tcp:443"], from: ["10.0.0.2/32"] },
    ]);
    expect(configFor(topology, "node_dev").accessRules).toEqual([]);
    expect(configFor(topology, "node_dev").forwardRules).toBeUndefined();
    const forward = [
      {
        action: "drop",
        from: ["10.0.0.2/32", "10.0.0.3/32", "10.0.0.4/32", "10.0.0.5/32", "10.0.0.10/32", "10.0.0.11/32"],
        to: ["192.168.9.0/24"],
        ports: ["*"],
        rule: 2,
      },
      { action: "accept", from: ["10.0.0.4/32"], to: ["192.168.0.0/16"], ports: ["*"], rule: 1 },
    ];
    expect(configFor(topology, "node_g1").forwardRules).toEqual(forward);
    expect(configFor(topology, "node_g2").forwardRules).toEqual(forward);
    const open = configFor(topologyWith(null), "node_web");
    expect(open.accessRules).toBeUndefined();
    expect(open.peers.map((p) => p.nodeId)).toEqual(["node_dev", "node_ops", "node_idle", "node_g1"]);
  });

  it("deltas carry filter changes, null when the network goes back to open, and applying one gives the whole config", () => {
    const stages = [topologyWith(null), topologyWith(RULES), topologyWith(RULES.slice(0, 1)), topologyWith(null)];
    for (let i = 1; i < stages.length; i++) {
      for (const id of ["node_web", "node_g1", "node_idle"]) {
        const from = configCoreFor(stages[i - 1]!, id);
        const to = configFor(stages[i]!, id);
        const delta = diffConfigs(from, to);
        expect(applyConfigDelta(from, delta)).toEqual(to);
        if (i === 3 && id === "node_web") expect(delta.accessRules).toBeNull();
      }
    }
  });

  it("a relayed pair the policy does not let peer holds no entry of the other, nor its address on the relay (issue 28)", () => {
    // Pairs stored while the policy let them peer (or before policy mode): the policy changes, the row stays.
    const relay = gateway("node_relay", "10.0.0.20", { relay: true });
    const parsed = parseRules(RULES);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.fields));
    const access = compileAccess(
      "policy",
      [...subjects, { ...subjects[0]!, id: relay.id, address: relay.address, tags: [] }],
      parsed.rules,
    );
    const relayedPairs = [
      { a: "node_dev", b: "node_web", relayId: relay.id },
      { a: "node_dev", b: "node_idle", relayId: relay.id },
    ];
    const topology = buildTopology(network("10.0.0.0/24", { relayedPairs }), [...nodes, relay], policies, access);
    const dev = new Map(allowedByPeer(configFor(topology, "node_dev")));
    // dev may reach web: relayed, web's own entry kept empty beneath.
    expect(dev.get("node_web")).toEqual([]);
    expect(dev.get(relay.id)).toEqual(["10.0.0.3/32", "10.0.0.20/32"]);
    // dev and idle may reach each other in no way: neither holds the other, and the relay carries neither to the other.
    expect(dev.has("node_idle")).toBe(false);
    const idle = new Map(allowedByPeer(configFor(topology, "node_idle")));
    expect(idle.has("node_dev")).toBe(false);
    expect(idle.get(relay.id)).toEqual(["10.0.0.20/32"]);
  });
});
