import type { PolicyRow, PoolRow } from "../../db/rows";
import { effectivePath } from "../routing/from-rows";

/** A probe a gateway's agent runs: ping `target` (an overlay address) to judge `acrossNodeId`, the route through it or itself. */
export interface Probe {
  target: string;
  acrossNodeId: string;
}

/** Reports carry at most this many probe results a node; the desired state asks for no more. */
export const MAX_PROBES_PER_NODE = 32;

/**
 * Who probes what, so that every member of a routed pool hop is watched by the gateway beside it:
 * - the prober is the gateway before the hop (P), or for a first hop the gateway after it (its sources are
 *   devices, which run no probes); a pool alone on its path has no prober (its members' reports decide);
 * - across the active member M, P pings the next hop's overlay address (a route through M: "up but not
 *   forwarding" shows as that probe down); with no next hop (an egress), or from the hop after, M's own;
 * - each standby S is pinged at its own address over its standby link (routing/standby-links.ts), so a
 *   standby that cannot be reached is not chosen at a failover.
 * A member has one prober (the first policy in id order that routes it names it); several policies through
 * one pool can give it several targets. `accepted`: the policies the topology routes.
 */
export function probesByProber(
  policies: Iterable<PolicyRow>,
  pools: ReadonlyMap<string, PoolRow>,
  addressOf: (nodeId: string) => string | undefined,
  accepted: ReadonlySet<string>,
): Map<string, Probe[]> {
  const proberOf = new Map<string, string>();
  const byProber = new Map<string, Map<string, Probe>>();
  const ask = (prober: string, acrossNodeId: string, targetNode: string) => {
    if ((proberOf.get(acrossNodeId) ?? prober) !== prober) return;
    const target = addressOf(targetNode);
    if (target === undefined) return;
    proberOf.set(acrossNodeId, prober);
    const probes = byProber.get(prober) ?? new Map<string, Probe>();
    probes.set(`${acrossNodeId} ${target}`, { target, acrossNodeId });
    byProber.set(prober, probes);
  };
  for (const policy of [...policies].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (!accepted.has(policy.id)) continue;
    const path = effectivePath(policy.gatewayPath, pools);
    policy.gatewayPath.forEach((hop, index) => {
      const pool = pools.get(hop);
      const prober = index > 0 ? path[index - 1] : path[index + 1];
      if (!pool || prober === undefined) return;
      const active = path[index]!;
      ask(prober, active, index > 0 && index < path.length - 1 ? path[index + 1]! : active);
      for (const member of pool.members) if (member.nodeId !== active) ask(prober, member.nodeId, member.nodeId);
    });
  }
  const ordered = new Map<string, Probe[]>();
  for (const [prober, probes] of byProber) {
    const sorted = [...probes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, probe]) => probe);
    ordered.set(prober, sorted.slice(0, MAX_PROBES_PER_NODE));
  }
  return ordered;
}

/**
 * Who is asked to probe each member of a routed pool (node probed → prober). A probe streak counts only
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
