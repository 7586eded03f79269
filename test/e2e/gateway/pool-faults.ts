// The three ways an active pool member stops carrying traffic (issue 27's Proof), each with how to make it
// happen, how to undo it before the next run, and the bound the e2e asserts on the outage it causes.
import { expect } from "vitest";
import { waitFor } from "../support/command.ts";
import { MACHINES, type Machine, type PoolLab } from "./pool-lab.ts";
import { watchAllowedIps } from "./wg-watch.ts";

// Targets: a detected failure under 1,000 ms as a user sees it (issue 42; 5 pings/s, last reply to first reply:
// 810-813 ms on the quiet machine with the agents' 100 ms probes, down after 4), a drain under 500 ms. The timed
// suites run alone, but a CI machine is slower and noisier than the quiet one, so the e2e asserts a margin: 2,000 ms
// for a detected failure (the "under 2 s" the pools promise, 2.5x the quiet figure) and 2,000 ms for a drain (4x;
// only a routing change, whose cost is the agents' long poll and apply, which load stretches most). Override on a
// slower machine.
const bound = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
export const DETECTED_BOUND_MS = bound("FAILOVER_BOUND_MS", 2_000);
export const DRAINED_BOUND_MS = bound("FAILOVER_DRAINED_BOUND_MS", 2_000);
/** Runs of each kind: 3 in a full `.ci/run`; the README's table is 5 on an idle machine (FAILOVER_RUNS=5). */
export const FAILOVER_RUNS = Math.max(1, Number(process.env.FAILOVER_RUNS ?? 3));

export interface Fault {
  kind: string;
  boundMs: number;
  /** The failover's `reason` this fault must be decided on. */
  reason: RegExp;
  /** Makes `machine` (the active member) fail; resolves with the moment the failure counts from. */
  inflict(lab: PoolLab, machine: Machine): Promise<number>;
  /** Undoes it; the member comes back as a standby. */
  repair(lab: PoolLab, machine: Machine): Promise<void>;
}

export const FAULTS: Fault[] = [
  {
    kind: "killed",
    boundMs: DETECTED_BOUND_MS,
    reason: /stale|not forwarding|down/,
    // The failure is the interface going (the data plane does not depend on the agent): replies still come
    // while the agent stops and `ip link del` runs, so the outage is measured from the moment it is gone.
    async inflict(lab, machine) {
      await lab.kill(machine);
      return Date.now();
    },
    async repair(lab, machine) {
      lab.startAgent(machine);
      await waitFor(
        `${machine}'s agent to report again`,
        async () => (await lab.pool()).members.find((m) => m.nodeId === lab.node(machine))!.healthy,
        { timeoutMs: 60_000, intervalMs: 250, details: lab.agentOutput },
      );
    },
  },
  {
    kind: "not forwarding",
    boundMs: DETECTED_BOUND_MS,
    reason: /not forwarding/,
    async inflict(lab, machine) {
      await lab.setForwarding(machine, false);
      return Date.now();
    },
    repair: (lab, machine) => lab.setForwarding(machine, true),
  },
  {
    kind: "drained",
    boundMs: DRAINED_BOUND_MS,
    reason: /^drained$/,
    // The operator's request is the moment: the drain and the failover are written before it answers.
    async inflict(lab, machine) {
      const at = Date.now();
      await lab.drain(machine, true);
      return at;
    },
    async repair(lab, machine) {
      await lab.drain(machine, false);
    },
  },
];

export interface Outage {
  kind: string;
  run: number;
  from: Machine;
  at: number;
  /** The longest silence: what is asserted. */
  ms: number;
  /** Last reply before the failure to the first after it (the measure before issue 27; blind to a later silence). */
  firstReplyMs: number;
}

/**
 * One run: waits for a steady pool, fails the member active now, measures the outage (the longest silence
 * from the last reply before the failure until every agent applied the failover), checks the pool moved to the other member for the fault's reason, repairs
 * the failed member and checks it stays standby (no preemption, no flapping back).
 */
export async function failActiveMember(lab: PoolLab, fault: Fault, run: number): Promise<Outage> {
  await lab.waitSteady();
  const from = await lab.active();
  const to: Machine = from === "g2" ? "g3" : "g2";
  const wg = watchAllowedIps(lab, fault.kind === "killed" ? MACHINES.filter((m) => m !== from) : MACHINES);
  await wg.ready;
  const at = await fault.inflict(lab, from);
  const recovered = await lab.pings!.waitForRecovery(at, 60_000);
  expect(recovered, `traffic never resumed after ${fault.kind} (${from})\n${lab.agentOutput()}`).not.toBeNull();
  await waitFor("the pool to name the other member", async () => (await lab.active()) === to, { timeoutMs: 30_000 });
  const failover = (await lab.pool()).lastFailover!;
  expect(failover).toMatchObject({ from: lab.node(from), to: lab.node(to), reason: expect.stringMatching(fault.reason) });
  // The first reply after the failure is not the end when a later apply (a drain's) stops traffic again:
  // the outage is the longest silence until every agent applied the failover and 2 s of replies came.
  await waitFor("every agent to apply the failover", () => lab.gatewaysInSync([from]), { timeoutMs: 30_000, details: lab.agentOutput });
  await waitFor("2 s of replies", () => lab.answeredFor(2_000), { timeoutMs: 30_000, details: lab.agentOutput });
  const outage = lab.pings!.longestGap(at, Date.now())!;
  const peersChanged = await wg.stop(at);
  console.log(
    `gateway pool: ${fault.kind} #${run} (${from} -> ${to}, ${failover.reason}): ${outage.ms} ms ` +
      `(silent from +${outage.lastBefore - at} to +${outage.firstAfter - at} ms after the fault; first reply after +${recovered!.ms}; ` +
      `peers changed: ${peersChanged}; applied: ${applyTimeline(lab, at)})`,
  );
  await fault.repair(lab, from);
  await lab.waitSteady();
  // The writer's clock (2 s) runs at least once more with the repaired member healthy and preferred or not.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(await lab.active(), `${from} came back and must stay standby`).toBe(to);
  return { kind: fault.kind, run, from, at, ms: outage.ms, firstReplyMs: recovered!.ms };
}

/**
 * When each agent applied the first routing revision after `at`, from its own log ("<ISO time> node <id>:
 * routing revision N, …"), relative to `at`: the order the hops moved in, which explains a long silence.
 */
export function applyTimeline(lab: PoolLab, at: number): string {
  return MACHINES.map((machine) => {
    for (const line of (lab.agents[machine]?.output() ?? "").split("\n")) {
      const match = /^(\S+Z) node \S+: routing revision (\d+)/.exec(line);
      const time = match ? Date.parse(match[1]!) : Number.NaN;
      if (time > at) return `${machine} +${time - at} ms (r${match![2]})`;
    }
    return `${machine} -`;
  }).join(", ");
}

/** One line per kind: each run's outage and the worst, for the log (the README copies it). */
export function outageTable(outages: Outage[]): string {
  const header = Array.from({ length: FAILOVER_RUNS }, (_, i) => `run ${i + 1}`.padStart(12)).join("");
  const lines = ["longest silence ms (first reply after ms)", `${"kind".padEnd(16)}${header}      max`];
  for (const fault of FAULTS) {
    const runs = outages.filter((o) => o.kind === fault.kind);
    if (runs.length === 0) continue;
    const cells = runs.map((o) => `${o.ms} (${o.firstReplyMs})`.padStart(12)).join("");
    lines.push(`${fault.kind.padEnd(16)}${cells}${`${Math.max(...runs.map((o) => o.ms))}`.padStart(9)}  (bound ${fault.boundMs})`);
  }
  return lines.join("\n");
}
