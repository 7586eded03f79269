// Where the CPU goes under a load: a sampling CPU profile of the Worker's isolate (under `wrangler dev` the
// Worker and its Durable Objects run in the one isolate) through the DevTools port, summed by function.
import { openDevTools } from "../test/e2e/support/devtools.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface HotFunction {
  /** The function's name and where it is ("(program)", "(garbage collector)" and "(idle)" are the runtime's own). */
  name: string;
  /** Its share of the samples taken, in percent. */
  share: number;
}

export interface CpuProfile<T> {
  result: T;
  /** Samples in which the isolate ran code, in percent of all (the rest: idle, waiting on I/O or other isolates). */
  busy: number;
  top: HotFunction[];
}

/** Bundled code keeps its names, not its files: a function is named by its name and the package it came from. */
function nameOf({ functionName, url }: ProfileNode["callFrame"]): string {
  const name = functionName || "(anonymous)";
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  return inPackage ? `${name} (${inPackage})` : name;
}

/** Runs `run` while the isolate is profiled (1 ms samples); the `limit` functions with the most samples of their own. */
export async function profileDuring<T>(inspectorPort: number, run: () => Promise<T>, limit = 12): Promise<CpuProfile<T>> {
  const session = await openDevTools(inspectorPort);
  try {
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: 1000 });
    await session.send("Profiler.start");
    const result = await run();
    const { profile } = (await session.send("Profiler.stop")) as { profile: Profile };
    const hits = new Map<string, number>();
    let total = 0;
    for (const node of profile.nodes) {
      const count = node.hitCount ?? 0;
      total += count;
      hits.set(nameOf(node.callFrame), (hits.get(nameOf(node.callFrame)) ?? 0) + count);
    }
    const share = (count: number) => (100 * count) / Math.max(1, total);
    const idle = hits.get("(idle)") ?? 0;
    const top = [...hits]
      .filter(([name]) => name !== "(idle)")
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, count]) => ({ name, share: share(count) }));
    return { result, busy: 100 - share(idle), top };
  } finally {
    session.close();
  }
}

/** "a 12.3%, b 4.5%, …": the profile's top functions on one line, for the bench's tables. */
export const profileLine = (profile: CpuProfile<unknown>) =>
  `isolate busy ${profile.busy.toFixed(0)}% of the samples; most samples of their own: ${profile.top
    .map((hot) => `${hot.name} ${hot.share.toFixed(1)}%`)
    .join(", ")}`;
