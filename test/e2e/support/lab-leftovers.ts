import { readFileSync } from "node:fs";
import { check, run } from "./command.ts";
import { labNamespaces, listNamespaces, type Lab } from "./netns.ts";

export interface Leftovers {
  /** Namespaces of this lab still listed by `ip netns list`. */
  namespaces: string[];
  /** Processes that ran inside the lab's namespaces and are still alive. */
  processes: number[];
}

/**
 * Cleans the lab up and reports what survived, so a test can assert a clean machine. The process
 * ids are read before cleanup (`ip netns pids`), because afterwards the namespaces are gone.
 */
export async function cleanupAndFindLeftovers(lab: Lab): Promise<Leftovers> {
  const pids: number[] = [];
  for (const namespace of await labNamespaces(lab.name)) {
    const listed = await run(["ip", "netns", "pids", namespace]);
    pids.push(...listed.stdout.split("\n").filter(Boolean).map(Number));
  }
  await lab.cleanup();
  await lab.cleanup(); // must be harmless: afterAll calls it again
  const namespaces = (await listNamespaces()).filter((name) => name.startsWith(`${lab.name}-`));
  // A daemon told to stop may take a moment to exit on a loaded machine: one still alive EXIT_GRACE_MS after the
  // cleanup is a leftover.
  const ends = Date.now() + EXIT_GRACE_MS;
  while (pids.some(isAlive) && Date.now() < ends) await new Promise((resolve) => setTimeout(resolve, 100));
  return { namespaces, processes: pids.filter(isAlive) };
}

const EXIT_GRACE_MS = 5_000;

/** Running, that is: an exited process its parent has not reaped yet (a zombie, `Z` in /proc/<pid>/stat) has ended. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false; // gone between the two looks
  }
}

/**
 * Stops every process still running in the lab's namespaces: what wgo started there (wireguard-go, knotd)
 * outlives wgo by design (systemd's KillMode=process), so suites that run it clean up by namespace.
 */
export async function killLabProcesses(lab: Lab | undefined): Promise<void> {
  for (const namespace of lab ? await labNamespaces(lab.name) : []) {
    for (const pid of (await run(["ip", "netns", "pids", namespace])).stdout.split("\n").filter(Boolean)) await run(["kill", pid]);
  }
}

/** For failure messages: what the namespaces looked like. */
export async function describeLab(lab: Lab): Promise<string> {
  const parts: string[] = [];
  for (const namespace of await labNamespaces(lab.name)) {
    const show = (...args: string[]) => check(["ip", "-n", namespace, ...args]);
    parts.push(`## ${namespace}\n${await show("-br", "address")}${await show("route")}${await show("-6", "route")}`);
  }
  return parts.join("\n");
}
