// The Worker's JS heap, read through the DevTools port `wrangler dev --inspector-port` opens.
import { openDevTools } from "../test/e2e/support/devtools.ts";

export interface HeapUsage {
  usedBytes: number;
  totalBytes: number;
}

/**
 * Runtime.getHeapUsage of the Worker's isolate (its Durable Objects share it). With `afterGc`, a heap
 * snapshot is taken and thrown away first: workerd never answers HeapProfiler.collectGarbage, and a
 * snapshot starts with a full collection, so the figure is what is retained, not garbage awaiting GC.
 */
export async function workerHeapUsage(inspectorPort: number, options: { afterGc?: boolean } = {}): Promise<HeapUsage> {
  const session = await openDevTools(inspectorPort);
  try {
    if (options.afterGc) await session.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    const usage = (await session.send("Runtime.getHeapUsage")) as { usedSize: number; totalSize: number };
    return { usedBytes: usage.usedSize, totalBytes: usage.totalSize };
  } finally {
    session.close();
  }
}
