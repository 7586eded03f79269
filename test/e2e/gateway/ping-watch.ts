// A continuous ping from a namespace (5 echo requests a second, each line stamped by ping -D), kept running
// across a failure, so the outage is read off the replies: the last reply before the failure and the
// first one after it. That is the failover time an operator's users see.
import { spawn } from "node:child_process";

export interface PingWatch {
  /** Reply times (ms since the epoch) so far. */
  replies(): number[];
  /** The gap from the last reply at or before `at` to the first reply after it; null while none came after. */
  outageAround(at: number): { lastBefore: number; firstAfter: number; ms: number } | null;
  /**
   * The longest silence between consecutive replies from the last reply at or before `from` up to `to`: the
   * outage of a change whose traffic may stop a while after it was made (a drain, a path change), not at once.
   */
  longestGap(from: number, to: number): { lastBefore: number; firstAfter: number; ms: number } | null;
  /** Waits until a reply arrives after `at`, or the deadline; returns the outage or null. */
  waitForRecovery(at: number, timeoutMs: number): Promise<{ lastBefore: number; firstAfter: number; ms: number } | null>;
  stop(): void;
}

export function watchPing(namespace: string, target: string): PingWatch {
  const child = spawn("ip", ["netns", "exec", namespace, "ping", "-D", "-n", "-i", "0.2", "-W", "1", target], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const times: number[] = [];
  let partial = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      // "[1732406400.123456] 64 bytes from 192.168.97.10: icmp_seq=12 ttl=62 time=0.9 ms"
      const match = /^\[(\d+\.\d+)\] \d+ bytes from /.exec(line);
      if (match) times.push(Math.round(Number(match[1]) * 1000));
    }
  });
  const outageAround = (at: number) => {
    const before = times.filter((t) => t <= at);
    const after = times.find((t) => t > at);
    if (before.length === 0 || after === undefined) return null;
    const lastBefore = before[before.length - 1]!;
    return { lastBefore, firstAfter: after, ms: after - lastBefore };
  };
  const longestGap = (from: number, to: number) => {
    const start = times.findLastIndex((t) => t <= from);
    if (start < 0) return null;
    let gap: { lastBefore: number; firstAfter: number; ms: number } | null = null;
    for (let i = start + 1; i < times.length && times[i - 1]! < to; i++) {
      const ms = times[i]! - times[i - 1]!;
      if (!gap || ms > gap.ms) gap = { lastBefore: times[i - 1]!, firstAfter: times[i]!, ms };
    }
    return gap;
  };
  return {
    replies: () => [...times],
    outageAround,
    longestGap,
    async waitForRecovery(at, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const outage = outageAround(at);
        if (outage) return outage;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return null;
    },
    stop: () => {
      child.kill("SIGINT");
    },
  };
}
