// CPU cost of the pure renderers as a network grows: one node's config (topology + peers + intent +
// wg-quick text) and a zone file. Run in-process with the Worker's own code.
import { renderZone, type DnsRecord } from "../src/core/dns";
import { buildNodeConfig, type RoutingNetwork, type RoutingNode, type RoutingPolicy } from "../src/core/routing";

export interface ScalingRow {
  what: string;
  size: string;
  cpuMs: number;
  outputKiB: number;
}

const KEY = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=";
const ipv4 = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** `nodes` members of 10.0.0.0/8, ten of them gateways (g0 the root of nine children), and `policies` two-hop policies. */
export function syntheticNetwork(nodeCount: number, policyCount: number) {
  const network: RoutingNetwork = { id: "net_bench", cidr: "10.0.0.0/8", routingRevision: 1, dnsServers: [] };
  const nodes: RoutingNode[] = Array.from({ length: nodeCount }, (_, i) => ({
    id: `node_${i}`,
    name: `n${i}`,
    address: ipv4(i + 1),
    publicKey: KEY.replace("x", String.fromCharCode(65 + (i % 26))),
    endpoint: i < 10 ? `198.51.100.${i + 1}:51820` : null,
    listenPort: i < 10 ? 51820 : null,
    isGateway: i < 10,
    routing: { mode: "all" },
  }));
  const policies: RoutingPolicy[] = Array.from({ length: policyCount }, (_, i) => ({
    id: `rp_${String(i).padStart(5, "0")}`,
    name: `p${i}`,
    destinationCidr: `172.${16 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}/32`,
    gatewayPath: ["node_0", `node_${1 + (i % 9)}`],
  }));
  return { network, nodes, policies };
}

function cpuMsPerCall(run: () => unknown, minCalls = 5): { cpuMs: number; last: unknown } {
  let last: unknown = run(); // warm-up (JIT)
  const start = process.cpuUsage();
  let calls = 0;
  const began = performance.now();
  while (calls < minCalls || performance.now() - began < 300) {
    last = run();
    calls++;
  }
  const used = process.cpuUsage(start);
  return { cpuMs: (used.user + used.system) / 1000 / calls, last };
}

const kib = (text: string) => Math.round((text.length / 1024) * 10) / 10;

export function measureRenderScaling(): ScalingRow[] {
  const rows: ScalingRow[] = [];
  for (const [nodes, policies] of [
    [100, 10],
    [1_000, 100],
    [10_000, 1_000],
  ] as const) {
    const { network, nodes: members, policies: rules } = syntheticNetwork(nodes, policies);
    // The costliest view: a source node peers with every other flat node and carries every policy.
    const { cpuMs, last } = cpuMsPerCall(() => buildNodeConfig(network, members, rules, "node_50"));
    rows.push({ what: "node config", size: `${nodes} nodes / ${policies} policies`, cpuMs, outputKiB: kib(JSON.stringify(last)) });
  }
  for (const count of [100, 1_000, 10_000]) {
    const records: DnsRecord[] = Array.from({ length: count }, (_, i) =>
      i % 3 === 2
        ? { name: `t${i}`, type: "TXT", value: `record number ${i}`, ttl: 300 }
        : { name: `h${i}`, type: "A", value: ipv4(i + 1), ttl: 300 },
    );
    const { cpuMs, last } = cpuMsPerCall(() => renderZone("bench.internal", records, { nameServerAddress: "10.0.0.1" }));
    rows.push({ what: "zone file", size: `${count} records`, cpuMs, outputKiB: kib(String(last)) });
  }
  return rows;
}
