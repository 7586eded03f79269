// Where the CPU goes under a load: a sampling CPU profile of the Worker's isolate (under `wrangler dev` the
// Worker and its Durable Objects run in the one isolate) through the DevTools port, summed by source module and
// by function. The bundle keeps esbuild's `// src/…` and `// node_modules/…` comment before each module's code,
// so a sample's line in the bundle names the module it ran in.
import { readFileSync } from "node:fs";
import type { WorkerServer } from "../test/e2e/support/worker-server.ts";
import { openDevTools } from "../test/e2e/support/devtools.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile<T> {
  result: T;
  /** Samples in which the isolate ran code, in percent of all (the rest: idle, waiting on I/O). */
  busy: number;
  /** Modules (a file of src/, a package) by their share of all samples, in percent. */
  modules: [string, number][];
  /** Functions (name and module) by their share of all samples. */
  functions: [string, number][];
  /** Our own functions (src/) by the samples spent in them and in the packages they called. */
  callers: [string, number][];
}

/** For each line of the bundle (0-based), the module whose code it is. */
function moduleLines(bundle: string): string[] {
  const modules: string[] = [];
  let current = "(bundle)";
  for (const line of readFileSync(bundle, "utf8").split("\n")) {
    const named = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line)?.[1];
    if (named) current = named.startsWith("node_modules/") ? (/^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(named)?.[1] ?? named) : named;
    modules.push(current);
  }
  return modules;
}

const top = (counts: Map<string, number>, total: number, limit: number): [string, number][] =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, count]) => [name, (100 * count) / Math.max(1, total)]);

/** Runs `run` while the server's isolate is profiled (1 ms samples). */
export async function profileDuring<T>(
  server: Pick<WorkerServer, "inspectorPort" | "bundle">,
  run: () => Promise<T>,
): Promise<CpuProfile<T>> {
  const session = await openDevTools(server.inspectorPort);
  try {
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: 1000 });
    await session.send("Profiler.start");
    const result = await run();
    const { profile } = (await session.send("Profiler.stop")) as { profile: { nodes: ProfileNode[] } };
    return { result, ...summarise(profile.nodes, moduleLines(server.bundle)) };
  } finally {
    session.close();
  }
}

/** Sums the samples by module, by function, and (for code in packages) by the nearest of our functions above it. */
function summarise(nodes: ProfileNode[], lines: string[]) {
  const parent = new Map<number, ProfileNode>();
  for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node);
  const moduleOf = ({ callFrame }: ProfileNode) =>
    // The runtime's own entries ("(program)", "(garbage collector)") have no line in the bundle.
    callFrame.url.endsWith("index.js") ? (lines[callFrame.lineNumber] ?? "(bundle)") : callFrame.functionName;
  const nameOf = (node: ProfileNode) => `${node.callFrame.functionName || "(anonymous)"} (${moduleOf(node)})`;
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  const callers = new Map<string, number>();
  const add = (counts: Map<string, number>, key: string, n: number) => counts.set(key, (counts.get(key) ?? 0) + n);
  let total = 0;
  let idle = 0;
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    if (node.callFrame.functionName === "(idle)") idle += hits;
    if (hits === 0 || node.callFrame.functionName === "(idle)") continue;
    add(modules, moduleOf(node), hits);
    add(functions, nameOf(node), hits);
    let own: ProfileNode | undefined = node;
    while (own && !moduleOf(own).startsWith("src/")) own = parent.get(own.id);
    if (own) add(callers, nameOf(own), hits);
  }
  return {
    busy: (100 * (total - idle)) / Math.max(1, total),
    modules: top(modules, total, 10),
    functions: top(functions, total, 8),
    callers: top(callers, total, 8),
  };
}

const shares = (entries: [string, number][]) => entries.map(([name, share]) => `${name} ${share.toFixed(1)}%`).join(", ");

/** The profile as lines for the bench's output: by module, by function, by our function. */
export const profileLines = (profile: CpuProfile<unknown>) => [
  `- isolate busy ${profile.busy.toFixed(0)}% of the samples; by module: ${shares(profile.modules)}`,
  `- by function: ${shares(profile.functions)}`,
  `- by our function, with the packages it called: ${shares(profile.callers)}`,
];
