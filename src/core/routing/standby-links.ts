import type { AcceptedPolicy } from "./forest";

/**
 * Where a pool's standby members sit, so that a failover only moves AllowedIPs between peers that are
 * already handshaken, on the few nodes beside the pool (docs/routing.md, "Standbys are ready"):
 * - a standby of hop i > 0 hangs below the gateway of hop i-1, beside the active member (its parent is that
 *   gateway): the hop before holds it as a child, and that gateway's subtree, which every ancestor and the
 *   flat mesh route by, holds the same members whichever is active. A failover at depth then changes no
 *   config outside the hops beside the pool (a flat standby would leave and join the mesh, a delta to every
 *   node of the network);
 * - a standby of a first hop is a root, like the active member: the sources (devices) hold it, as they must
 *   to send to it after a failover;
 * - every standby keeps a *standby link*, a direct tunnel, with the gateway of hop i+1: the forest reaches a
 *   deep gateway only through its ancestors, so without it a failover would add that peer, and a new peer's
 *   first handshake waits WireGuard's 5 s retry when the two ends apply the change in the wrong order.
 */
export interface StandbyLinks {
  /** Both directions: node id → the node ids it holds a direct tunnel with, beside its tree and mesh peers. */
  links: Map<string, Set<string>>;
  /** Every standby member of a routed pool hop. */
  standbys: Set<string>;
  /** The forest's parents plus each deep standby's (the gateway of the hop before its hop). */
  parent: Map<string, string>;
}

/** `forestParent`: the forest of the accepted paths. `exists`: nodes the topology kept (an unusable address leaves a node out). */
export function standbyLinksOf(
  accepted: readonly AcceptedPolicy[],
  forestParent: ReadonlyMap<string, string>,
  exists: (nodeId: string) => boolean,
): StandbyLinks {
  const links = new Map<string, Set<string>>();
  const standbys = new Set<string>();
  const parent = new Map(forestParent);
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
        // A stored row naming a node on a path as a standby (the API never writes one) keeps the path's place.
        if (!exists(standby) || forestParent.has(standby)) continue;
        standbys.add(standby);
        if (index > 0 && exists(path[index - 1]!)) parent.set(standby, path[index - 1]!);
        if (index < path.length - 1) link(standby, path[index + 1]!);
      }
    });
  }
  return { links, standbys, parent };
}
