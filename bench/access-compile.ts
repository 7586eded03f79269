// The access policy's cost in-process, with the Worker's own code (issue 26): compiling 500 rules over
// 10,000 nodes (CPU and retained heap) beside the bare topology; one laptop's config in policy and open
// mode; and a one-rule change: what giving every node its delta costs the writer, at 1,000, 5,000, 10,000.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { classify } from "../src/core/access-policy/classes";
import { compileAccess } from "../src/core/access-policy/compile";
import { parseRules, rulesInForce } from "../src/core/access-policy/rules";
import type { AccessSubject } from "../src/core/access-policy/selectors";
import { buildTopology, configCoreFor, configFor, diffConfigs, type RoutingNode } from "../src/core/routing";
import type { AccessRuleText } from "../src/core/access-policy/rules";
import { AccessChange } from "../src/core/routing/access-change";
import { benchPolicy, type PlacedNode, SPECIAL, tagsOf } from "./access-policy";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const KEY = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=";
const network = { id: "net_bench", cidr: "10.64.0.0/18", routingRevision: 1, dnsServers: [] };
const addressOf = (i: number) => `10.64.${((i + 1) >> 8) & 63}.${(i + 1) & 255}`;

/** `count` nodes as the Worker would hold them, and the bench policy over them. */
export function syntheticPolicyNetwork(count: number) {
  const placed: PlacedNode[] = Array.from({ length: count }, (_, i) => ({ index: i, id: `node_${i}`, address: addressOf(i) }));
  const nodes: RoutingNode[] = placed.map(({ index, id, address }) => ({
    id,
    name: `n${index}`,
    address,
    publicKey: KEY.replace("x", String.fromCharCode(65 + (index % 26))),
    endpoint: index % 10 === 0 ? `198.51.100.${index % 250}:51820` : null,
    listenPort: index % 10 === 0 ? 51820 : null,
    isGateway: false,
    routing: { mode: "all" },
  }));
  const subjects: AccessSubject[] = placed.map(({ index, id, address }) => ({
    id,
    address,
    tags: tagsOf(index),
    ownerEmail: null,
    ownerRole: null,
  }));
  return { placed, nodes, subjects };
}

export const parsed = (texts: AccessRuleText[]) => {
  const result = parseRules(texts);
  if (!result.ok) throw new Error(`bench policy does not parse: ${JSON.stringify(result.fields.slice(0, 3))}`);
  return rulesInForce(result.rules, Date.now());
};

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** CPU ms of each of `runs` calls (after one warm-up), and the heap the last call's result retains. */
function measure<T>(runs: number, run: () => T): { cpuMs: number; heapMiB: number; last: T } {
  run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  gc();
  const before = process.memoryUsage().heapUsed;
  const last = run();
  gc();
  const heapMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  return { cpuMs: p50(times), heapMiB, last };
}

const figures = ({ cpuMs, heapMiB }: { cpuMs: number; heapMiB: number }) => ({ cpuMs, heapMiB });

const cpuMs = (run: () => unknown) => {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

export interface CompileFigures {
  nodes: number;
  rules: number;
  sourceClasses: number;
  targetClasses: number;
  compile: { cpuMs: number; heapMiB: number };
  bareTopology: { cpuMs: number; heapMiB: number };
  policyTopology: { cpuMs: number; heapMiB: number };
  probe: { policyKiB: number; policyPeers: number; policyMs: number; openKiB: number; openPeers: number; openMs: number };
}

export function measureCompile(count = 10_000): CompileFigures {
  const { nodes, subjects, placed } = syntheticPolicyNetwork(count);
  const rules = parsed(benchPolicy(placed));
  const compile = measure(5, () => compileAccess("policy", subjects, rules));
  const bareTopology = measure(5, () => buildTopology(network, nodes, []));
  const policyTopology = measure(5, () => buildTopology(network, nodes, [], compileAccess("policy", subjects, rules)));
  const probeId = `node_${SPECIAL.probe}`;
  const open = buildTopology(network, nodes, []);
  const policy = policyTopology.last;
  const read = (topology: typeof open) => {
    configFor(topology, probeId);
    const times: number[] = [];
    let config = configFor(topology, probeId);
    for (let i = 0; i < 5; i++) times.push(cpuMs(() => (config = configFor(topology, probeId))));
    return { kib: JSON.stringify(config).length / 1024, peers: config.peers.length, ms: p50(times) };
  };
  const p = read(policy);
  const o = read(open);
  return {
    nodes: count,
    rules: rules.length,
    sourceClasses: classify(subjects, rules, "src").members.length,
    targetClasses: classify(subjects, rules, "dst").members.length,
    compile: figures(compile),
    bareTopology: figures(bareTopology),
    policyTopology: figures(policyTopology),
    probe: { policyKiB: p.kib, policyPeers: p.peers, policyMs: p.ms, openKiB: o.kib, openPeers: o.peers, openMs: o.ms },
  };
}

export interface ChangeFigures {
  nodes: number;
  /** Recompiling and rebuilding the topology at the new revision (the first read after the PUT). */
  rebuildMs: number;
  /** Every node's delta (its config core at both revisions, compared): what the writer spends once all have asked. */
  allDeltasMs: number;
  /** Every node's configs rendered and compared, without AccessChange. */
  renderedMs: number;
  nodesChanged: number;
  deltaBytes: number[];
}

/** The one-rule change at `count` nodes: the grantee's grant moves from one server to another. */
export function measureRuleChange(count: number): ChangeFigures {
  const { nodes, subjects, placed } = syntheticPolicyNetwork(count);
  const [beforeRules, afterRules] = [parsed(benchPolicy(placed, "before")), parsed(benchPolicy(placed, "after"))];
  const next = { ...network, routingRevision: 2 };
  // Each measurement on fresh compilations: they fill their class pairs as asked, and a warm one would flatter.
  const pair = () => ({
    before: buildTopology(network, nodes, [], compileAccess("policy", subjects, beforeRules)),
    after: buildTopology(next, nodes, [], compileAccess("policy", subjects, afterRules)),
  });
  const rebuildMs = cpuMs(() => buildTopology(next, nodes, [], compileAccess("policy", subjects, afterRules)));
  const deltaBytes: number[] = [];
  // As the writer serves them (memory/config-reads.ts): a node the change left alone is answered by lookup.
  const served = pair();
  const allDeltasMs = cpuMs(() => {
    const change = new AccessChange(served.before, served.after);
    for (const node of nodes) {
      if (change.unchanged(node.id)) continue;
      const delta = diffConfigs(configCoreFor(served.before, node.id), configCoreFor(served.after, node.id));
      const changed = Object.keys(delta).length > 6 || delta.peersUpserted.length + delta.peersRemoved.length > 0;
      if (changed) deltaBytes.push(JSON.stringify(delta).length);
    }
  });
  // Without the lookup: both configs of every node rendered and compared (the cost before AccessChange).
  const rendered = pair();
  const renderedMs = cpuMs(() => {
    for (const node of nodes) diffConfigs(configCoreFor(rendered.before, node.id), configCoreFor(rendered.after, node.id));
  });
  return { nodes: count, rebuildMs, allDeltasMs, renderedMs, nodesChanged: deltaBytes.length, deltaBytes };
}
