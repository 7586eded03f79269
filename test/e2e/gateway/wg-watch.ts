// When each gateway's WireGuard peers actually changed (not when its agent logged the apply, which comes after
// filters and DNS): `wg show <if> allowed-ips` in each routing domain every 200 ms while a planned change (a
// drain, a path change) lands. The order the hops moved in is what explains a silence that starts before
// any agent says it applied anything.
import { run } from "../support/command.ts";
import { agentInterface } from "./chain-network.ts";
import { MACHINES, type Machine, type PoolLab } from "./pool-lab.ts";

export interface WgWatch {
  /** Resolves once every machine's peers were read once (make the change after it). */
  ready: Promise<unknown>;
  /** Stops watching; says per machine when (ms after `at`) its peers' AllowedIPs changed, or "-". */
  stop(at: number): Promise<string>;
}

export function watchAllowedIps(lab: PoolLab, machines: readonly Machine[] = MACHINES): WgWatch {
  const changedAt = new Map<Machine, number[]>(machines.map((m) => [m, []]));
  let watching = true;
  // Peers and their AllowedIPs as a set (the order wg lists them in is no change).
  const show = async (machine: Machine) => {
    const argv = ["ip", "netns", "exec", lab.domain(machine), "wg", "show", agentInterface(lab.node(machine)), "allowed-ips"];
    const lines = (await run(argv)).stdout.trim().split("\n");
    return lines
      .map((line) => line.split(/\s+/).sort().join(" "))
      .sort()
      .join("\n");
  };
  const baselines = Promise.all(machines.map(show));
  const watchOne = async (machine: Machine, index: number) => {
    let last = (await baselines)[index];
    while (watching) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const now = await show(machine);
      if (now !== last) changedAt.get(machine)!.push(Date.now());
      last = now;
    }
  };
  const loops = machines.map(watchOne);
  return {
    ready: baselines,
    async stop(at) {
      watching = false;
      await Promise.all(loops);
      const times = (m: Machine) => changedAt.get(m)!.map((t) => `+${t - at}`);
      return machines.map((m) => `${m} ${times(m).join("/") || "-"}`).join(", ");
    },
  };
}
