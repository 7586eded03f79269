import type { AcceptedPolicy } from "./forest";

/**
 * Standby links: the tunnels a pool's standby members keep with the gateways beside their hop, so that a
 * failover only moves AllowedIPs between peers that are already handshaken (docs/routing.md, "Standbys
 * are ready"). A standby is on no path, so the forest does not peer it with the hop after it (a deep
 * gateway is reached through its ancestors) nor, at depth, with the hop before it; a failover would then
 * add peers, and the first handshake of a new peer can wait WireGuard's 5 s retry when the two ends apply
 * the change in the wrong order.
 */
export interface StandbyLinks {
  /** Both directions: node id → the node ids it holds a direct tunnel with, beside its tree and mesh peers. */
  links: Map<string, Set<string>>;
  /** Every standby member of a routed pool hop. */
  standbys: Set<string>;
}

/**
 * The links of the accepted policies: each standby of hop i with the gateway at hop i-1 and at hop i+1
 * (the sources before a first hop already reach every flat node, a standby included). `exists`: nodes
 * the topology kept (an unusable address leaves a node out, and with it its links).
 */
export function standbyLinksOf(accepted: readonly AcceptedPolicy[], exists: (nodeId: string) => boolean): StandbyLinks {
  const links = new Map<string, Set<string>>();
  const standbys = new Set<string>();
  const link = (a: string, b: string) => {
    if (a === b || !exists(a) || !exists(b)) return;
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const set = links.get(from);
      if (set) set.add(to);
      else links.set(from, new Set([to]));
    }
  };
  for (const { policy } of accepted) {
    const path = policy.gatewayPath;
    policy.standbys?.forEach((members, index) => {
      for (const standby of members) {
        if (!exists(standby)) continue;
        standbys.add(standby);
        if (index > 0) link(standby, path[index - 1]!);
        if (index < path.length - 1) link(standby, path[index + 1]!);
      }
    });
  }
  return { links, standbys };
}
