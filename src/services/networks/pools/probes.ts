import type { PolicyRow, PoolRow } from "../state";
import { effectivePath } from "../state";

/** A forwarding probe a gateway's agent runs: ping `target` (an overlay address), whose route goes through `acrossNodeId`. */
export interface Probe {
  target: string;
  acrossNodeId: string;
}

/** Reports carry at most this many probe results a node; the desired state asks for no more. */
export const MAX_PROBES_PER_NODE = 32;

/**
 * Who probes what: for every pool hop with a gateway before it (P) and after it (C) on a path, P pings C's
 * overlay address, a route that goes through the pool's active member M. "Up but not forwarding" shows
 * as P's probes failing across M. A first hop has only sources before it and an egress nothing after it:
 * their health is the member's own reports. `accepted`: the policies the topology routes.
 */
export function probesByProber(
  policies: Iterable<PolicyRow>,
  pools: ReadonlyMap<string, PoolRow>,
  addressOf: (nodeId: string) => string | undefined,
  accepted: ReadonlySet<string>,
): Map<string, Probe[]> {
  const byProber = new Map<string, Map<string, Probe>>();
  for (const policy of policies) {
    if (!accepted.has(policy.id)) continue;
    const path = effectivePath(policy.gatewayPath, pools);
    for (let index = 1; index < path.length - 1; index++) {
      if (!pools.has(policy.gatewayPath[index]!)) continue;
      const target = addressOf(path[index + 1]!);
      if (target === undefined) continue;
      const probe = { target, acrossNodeId: path[index]! };
      const prober = path[index - 1]!;
      const probes = byProber.get(prober) ?? new Map<string, Probe>();
      probes.set(`${probe.acrossNodeId} ${probe.target}`, probe);
      byProber.set(prober, probes);
    }
  }
  const ordered = new Map<string, Probe[]>();
  for (const [prober, probes] of byProber) {
    const sorted = [...probes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, probe]) => probe);
    ordered.set(prober, sorted.slice(0, MAX_PROBES_PER_NODE));
  }
  return ordered;
}

/**
 * Who is asked to probe across each active member (node probed across → prober). A probe streak counts only
 * when the node the server asked made it: another gateway of the network reporting failures across a member
 * must not be able to move a pool's traffic.
 */
export function assignedProbers(policies: Iterable<PolicyRow>, pools: ReadonlyMap<string, PoolRow>): Map<string, string> {
  const all = [...policies];
  const byProber = probesByProber(all, pools, () => "", new Set(all.map((policy) => policy.id)));
  const assigned = new Map<string, string>();
  for (const [prober, probes] of byProber) for (const probe of probes) assigned.set(probe.acrossNodeId, prober);
  return assigned;
}

/** The vitals of a member, with a probe streak kept only when the assigned prober reported it. */
export const trustedVitals = <V extends { probeFailStreak: number; proberNodeId: string | null }>(
  vitals: V,
  memberId: string,
  assigned: ReadonlyMap<string, string>,
): V => (vitals.proberNodeId !== null && vitals.proberNodeId === assigned.get(memberId) ? vitals : { ...vitals, probeFailStreak: 0 });
