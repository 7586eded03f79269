// Delta sync, the pure part: wgo's copy of the server's wg-quick renderer writes the server's bytes, and
// a delta applied to the held config gives exactly the config the server serves at the new revision.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";
import { filterPairArb } from "../helpers/inbound-filters.ts";
import { diffConfigs, type NodeConfig, nodeConfig, type PeerConfig, serverWgQuick } from "./support/config-diff.ts";

const delta = cli.configDelta;

const KEY_A = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=";
const KEY_B = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=";
const KEY_C = "HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=";

const peer = (nodeId: string, address: string, rest: Partial<PeerConfig> = {}): PeerConfig => ({
  nodeId,
  name: nodeId.replace("node_", ""),
  address,
  publicKey: KEY_A,
  endpoint: null,
  allowedIps: [`${address}/${address.includes(":") ? 128 : 32}`],
  persistentKeepalive: null,
  ...rest,
});

describe("renderWgQuick", () => {
  // Texts as the Worker writes them (test/routing/wg-quick.test.ts pins the same shapes on its side).
  it("writes an IPv4 source: DNS, peers by address as numbers, keepalive and endpoint only when set", () => {
    const config = {
      nodeId: "node_s1",
      networkId: "net_lab",
      routingRevision: 12,
      interface: { address: "10.0.0.11/24", listenPort: null, dns: ["10.0.0.53", "1.1.1.1"] },
      peers: [
        peer("node_g1", "10.0.0.1", {
          name: "edge",
          publicKey: KEY_A,
          endpoint: "g1.example.net:51820",
          allowedIps: ["10.0.0.1/32", "10.0.0.2/32", "172.16.0.0/12", "192.168.0.0/16"],
          persistentKeepalive: 25,
        }),
        peer("node_s2", "10.0.0.9", { name: "server", publicKey: KEY_B, endpoint: "203.0.113.9:51820", persistentKeepalive: 25 }),
        peer("node_s3", "10.0.0.100", { name: "phone", publicKey: KEY_C }),
      ],
      routingIntent: [],
      forwarding: false,
    };
    const expected = [
      "# wg-overlay: network net_lab, node node_s1, routing revision 12",
      "[Interface]",
      "PrivateKey = REPLACE_WITH_PRIVATE_KEY",
      "Address = 10.0.0.11/24",
      "DNS = 10.0.0.53, 1.1.1.1",
      "",
      "[Peer]",
      "# edge (node_g1)",
      `PublicKey = ${KEY_A}`,
      "Endpoint = g1.example.net:51820",
      "AllowedIPs = 10.0.0.1/32, 10.0.0.2/32, 172.16.0.0/12, 192.168.0.0/16",
      "PersistentKeepalive = 25",
      "",
      "[Peer]",
      "# server (node_s2)",
      `PublicKey = ${KEY_B}`,
      "Endpoint = 203.0.113.9:51820",
      "AllowedIPs = 10.0.0.9/32",
      "PersistentKeepalive = 25",
      "",
      "[Peer]",
      "# phone (node_s3)",
      `PublicKey = ${KEY_C}`,
      "AllowedIPs = 10.0.0.100/32",
      "",
    ].join("\n");
    expect(delta.renderWgQuick(config)).toBe(expected);
    expect(delta.sortPeers([...config.peers].reverse())).toEqual(config.peers);
  });

  it("writes an IPv6 gateway: listen port, the IPv6 forwarding sysctl, no DNS line without servers", () => {
    const config = {
      nodeId: "node_g2",
      networkId: "net_v6",
      routingRevision: 7,
      interface: { address: "fd00:77::2/64", listenPort: 51820, dns: [], dnsSearch: [] },
      peers: [
        peer("node_a", "fd00:77::a", { name: "a\nPostUp = rm -rf /", publicKey: KEY_B, allowedIps: ["fd00:77::a/128", "fd10::/48"] }),
      ],
      routingIntent: [],
      forwarding: true,
    };
    expect(delta.renderWgQuick(config)).toBe(
      [
        "# wg-overlay: network net_v6, node node_g2, routing revision 7",
        "[Interface]",
        "PrivateKey = REPLACE_WITH_PRIVATE_KEY",
        "Address = fd00:77::2/64",
        "ListenPort = 51820",
        "PostUp = sysctl -q -w net.ipv6.conf.all.forwarding=1",
        "",
        "[Peer]",
        "# a PostUp = rm -rf / (node_a)",
        `PublicKey = ${KEY_B}`,
        "AllowedIPs = fd00:77::a/128, fd10::/48",
        "",
      ].join("\n"),
    );
    expect(delta.renderWgQuick(config)).toBe(serverWgQuick(config));
  });

  it("orders IPv6 peers as 128-bit numbers and equal addresses by nodeId", () => {
    const peers = [peer("node_b", "fd00::1:0"), peer("node_c", "fd00::ffff"), peer("node_a", "fd00::1:0"), peer("node_d", "fd00::9")];
    expect(delta.sortPeers(peers).map((p: PeerConfig) => p.nodeId)).toEqual(["node_d", "node_c", "node_a", "node_b"]);
  });
});

// Random pairs of configs of one node (IPv4 or IPv6), sharing a pool of node ids so deltas mix
// unchanged, changed, new and removed peers.
const NODE_IDS = ["node_a", "node_b", "node_c", "node_d", "node_e", "node_f", "node_g", "node_h"];
const addressArb = (v6: boolean) =>
  fc.integer({ min: 1, max: 600 }).map((n) => (v6 ? `fd00::${n.toString(16)}` : `10.0.${n >> 8}.${n & 255}`));
const peerArb = (v6: boolean) =>
  fc.record({
    nodeId: fc.constantFrom(...NODE_IDS),
    name: fc.oneof(fc.constantFrom("gw", "laptop"), fc.string({ maxLength: 6 })),
    address: addressArb(v6),
    publicKey: fc.constantFrom(KEY_A, KEY_B, KEY_C),
    endpoint: fc.option(fc.constantFrom("192.0.2.1:51820", "[2001:db8::1]:51820", "gw.example.net:51820")),
    allowedIps: fc.uniqueArray(fc.constantFrom("192.168.0.0/16", "172.16.0.0/12", "fd10::/48", "0.0.0.0/0"), { maxLength: 3 }),
    persistentKeepalive: fc.option(fc.constant(25)),
  });
const peersArb = (v6: boolean) => fc.uniqueArray(peerArb(v6), { selector: (p) => p.nodeId, maxLength: 6 });
const interfaceArb = (v6: boolean) =>
  fc
    .record({
      address: addressArb(v6).map((a) => `${a}/${v6 ? 64 : 22}`),
      listenPort: fc.option(fc.constantFrom(51820, 51821)),
      dns: fc.uniqueArray(fc.constantFrom("10.0.0.53", "1.1.1.1", "fd00::53"), { maxLength: 2 }),
      domain: fc.constantFrom("corp.example", "lab.internal"),
    })
    // As the server sends it: the search domain only beside servers.
    .map(({ domain, ...rest }) => ({ ...rest, dnsSearch: rest.dns.length > 0 ? [domain] : [] }));
const intentArb = fc.array(
  fc.record({
    policyId: fc.constantFrom("rp_1", "rp_2"),
    name: fc.constant("lab"),
    destinationCidr: fc.constant("192.168.77.0/24"),
    path: fc.constant<string[]>(["node_gw"]),
    role: fc.constantFrom("source" as const, "egress" as const),
    previousHop: fc.constant(null),
    nextHop: fc.constant(null),
  }),
  { maxLength: 2 },
);

const configPair = fc.boolean().chain((v6) =>
  fc
    .record({
      revision: fc.nat(1000),
      bump: fc.nat(5),
      interface: interfaceArb(v6),
      peers: peersArb(v6),
      intent: intentArb,
      forwarding: fc.boolean(),
      keep: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      fresh: peersArb(v6),
      next: fc.record({ interface: fc.option(interfaceArb(v6)), intent: fc.option(intentArb), forwarding: fc.boolean() }),
      // Policy mode on both sides (the filter sent whole or as a patch), entering it, leaving it, or open mode.
      filters: filterPairArb(v6),
      policy: fc.constantFrom("both", "entering", "leaving", "open"),
    })
    .map((g): [NodeConfig, NodeConfig] => {
      const base = { nodeId: "node_self", networkId: "net_1" };
      const old = nodeConfig({
        ...base,
        routingRevision: g.revision,
        interface: g.interface,
        peers: g.peers,
        routingIntent: g.intent,
        forwarding: g.forwarding,
        ...(g.policy === "both" || g.policy === "leaving" ? { accessRules: g.filters[0] } : {}),
      });
      const fresh = new Set(g.fresh.map((p) => p.nodeId));
      const kept = g.peers.filter((p, i) => g.keep[i] && !fresh.has(p.nodeId));
      const next = nodeConfig({
        ...base,
        routingRevision: g.revision + g.bump,
        interface: g.next.interface ?? g.interface,
        peers: [...kept, ...g.fresh],
        routingIntent: g.next.intent ?? g.intent,
        forwarding: g.next.forwarding,
        ...(g.policy === "both" || g.policy === "entering" ? { accessRules: g.filters[1] } : {}),
      });
      return [old, next];
    }),
);

describe("applyConfigDelta", () => {
  it("gives the server's config at the new revision, wg-quick text included, for any pair of configs", () => {
    fc.assert(
      fc.property(configPair, ([old, next]) => {
        expect(delta.deltaBase(old), "wgo re-renders the server's text").toBe(old);
        const applied = delta.applyConfigDelta(old, diffConfigs(old, next));
        expect(applied).toEqual(next);
        expect(applied.wgQuick).toBe(next.wgQuick);
      }),
      { numRuns: 300 },
    );
  });

  it("sends only what changed: an unchanged config is an empty delta, applied as a revision bump", () => {
    const [old] = fc.sample(configPair, { numRuns: 1, seed: 14 })[0]!;
    const bumped = nodeConfig({ ...old, routingRevision: old.routingRevision + 1 });
    const empty = diffConfigs(old, bumped);
    expect(empty).toEqual({
      nodeId: old.nodeId,
      networkId: old.networkId,
      fromRevision: old.routingRevision,
      routingRevision: old.routingRevision + 1,
      peersUpserted: [],
      peersRemoved: [],
    });
    expect(delta.applyConfigDelta(old, empty)).toEqual(bumped);
  });

  it("refuses a delta from another revision, another node, or with nothing held", () => {
    const old = nodeConfig({
      nodeId: "node_self",
      networkId: "net_1",
      routingRevision: 5,
      interface: { address: "10.0.0.1/24", listenPort: null, dns: [], dnsSearch: [] },
      peers: [peer("node_a", "10.0.0.2")],
      routingIntent: [],
      forwarding: false,
    });
    const next = nodeConfig({ ...old, routingRevision: 6, peers: [] });
    const good = diffConfigs(old, next);
    const refused = (held: unknown, change: unknown) => {
      try {
        delta.applyConfigDelta(held, change);
      } catch (error) {
        expect(error).toBeInstanceOf(cli.errors.OperationError);
        return (error as Error).message;
      }
      throw new Error("not refused");
    };
    expect(refused(old, { ...good, fromRevision: 4 })).toBe("the delta starts at revision 4, but the held config is revision 5");
    expect(refused(old, { ...good, nodeId: "node_other" })).toBe("the delta is for node node_other in net_1, not node_self in net_1");
    expect(refused(null, good)).toBe("the server sent a delta, but no config is held to apply it to");
    expect(refused(old, { ...good, peersUpserted: [peer("node_b", "10.0.0.3"), peer("node_b", "10.0.0.4")] })).toBe(
      "the delta upserts a peer twice",
    );
    expect(delta.applyConfigDelta(old, good)).toEqual(next);
  });

  it("does not build on a held config without peer addresses or whose text wgo would not reproduce", () => {
    const [old] = fc.sample(
      configPair.filter(([o]) => o.peers.length > 0),
      { numRuns: 1, seed: 3 },
    )[0]!;
    expect(delta.deltaBase(old)).toBe(old);
    const { address: _, ...legacyPeer } = old.peers[0]!;
    expect(delta.deltaBase({ ...old, peers: [legacyPeer, ...old.peers.slice(1)] })).toBeNull();
    expect(delta.deltaBase({ ...old, wgQuick: `${old.wgQuick}MTU = 1380\n` })).toBeNull();
    expect(delta.deltaBase(null)).toBeNull();
  });
});
