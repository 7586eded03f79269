// What the agents' cadence costs the API (issue 27, item 3), read off each gateway's counting proxy: requests
// a second per gateway over a steady window, and over the 10 s after each failure (the reports that carry
// the failure, the long polls the failover ends, the fetches of the new revision).
import type { Outage } from "./pool-faults.ts";
import { MACHINES, type PoolLab } from "./pool-lab.ts";

/** The window after a failure counted as "around a failover": detection, decision and every agent's apply. */
export const AROUND_FAILOVER_MS = 10_000;

/** A per-gateway table of requests per second, steady and around the failovers, for the log. */
export function requestRates(lab: PoolLab, steady: { from: number; to: number }, outages: Outage[]): string {
  const seconds = (steady.to - steady.from) / 1000;
  const lines = [
    `agent requests to the API per gateway (steady: ${seconds.toFixed(1)} s; around a failover: ${AROUND_FAILOVER_MS / 1000} s after each failure)`,
  ];
  let steadyTotal = 0;
  for (const machine of MACHINES) {
    const counts = lab.api[machine].countBetween(steady.from, steady.to);
    const total = sum(counts.values());
    steadyTotal += total;
    const around = outages.map((o) => sum(lab.api[machine].countBetween(o.at, o.at + AROUND_FAILOVER_MS).values()));
    const aroundRate = around.length > 0 ? sum(around) / (around.length * (AROUND_FAILOVER_MS / 1000)) : Number.NaN;
    const byKind = [...counts].map(([kind, n]) => `${kind} ${(n / seconds).toFixed(2)}`).join(", ");
    lines.push(`  ${machine}: steady ${(total / seconds).toFixed(2)}/s (${byKind}); around a failover ${aroundRate.toFixed(2)}/s`);
  }
  const perGateway = steadyTotal / MACHINES.length / seconds;
  lines.push(`  mean ${perGateway.toFixed(2)}/s a gateway: ${Math.round(perGateway * 1000)}/s at 1,000 gateways`);
  return lines.join("\n");
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
