// Resident memory of a `wrangler dev` server: the wrangler process and everything it started (workerd
// for the Worker, workerd for wrangler's own request proxy, esbuild) share one process group, and the
// issue is what the group holds, whichever process it sits in. Linux /proc only.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessMemory {
  pid: number;
  /** A short name that tells the two workerd processes apart: "workerd (worker)" and "workerd (proxy)". */
  name: string;
  rssBytes: number;
}

/** Every process whose process group is `pgid` (startWorker makes wrangler's pid the group id). */
export function processGroupMemory(pgid: number): ProcessMemory[] {
  const found: ProcessMemory[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name, which is in parentheses and may itself hold spaces: state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const rssKiB = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1];
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      found.push({ pid: Number(entry), name: describe(argv), rssBytes: Number(rssKiB ?? 0) * 1024 });
    } catch {
      // The process ended while we read it.
    }
  }
  return found;
}

/** Sum of VmRSS over the group (shared pages count once per process, as `ps` shows them). */
export function processGroupRssBytes(pgid: number): number {
  return processGroupMemory(pgid).reduce((sum, process) => sum + process.rssBytes, 0);
}

function describe(argv: string[]): string {
  const program = argv[0]?.split("/").pop() ?? "?";
  if (program !== "workerd") return argv.some((arg) => arg.endsWith("wrangler-dist/cli.js")) ? "wrangler" : program;
  // wrangler's proxy workerd listens on the dev port; the Worker's own runtime on a port it picks (:0).
  return argv.some((arg) => arg.startsWith("--socket-addr=entry=") && arg.endsWith(":0")) ? "workerd (worker)" : "workerd (proxy)";
}

export const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);
