import type { CursorPosition } from "../../../lib/pagination";
import type { HeldNetwork } from "../memory/held-network";
import type { TunnelRow } from "./hot-store";

/** What a reader asks of one network's tunnels (views/tunnel-list.ts). */
export interface TunnelQuery {
  /** Tunnels reported by, or leading to, this node. */
  nodeId?: string;
  /**
   * Device nodes whose detail the reader may see (device-node-privacy.ts): null, every one (managers, platform
   * admins); else their own devices. A tunnel shows when its reporter is one of them, or when neither end is
   * another member's device.
   */
  seenDevices: string[] | null;
  after?: CursorPosition;
  limit: number;
}

export type ListedTunnel = TunnelRow & { networkId: string; toNodeId: string | null };

/** One network's page of tunnels in (createdAt, id) order, at most `limit` rows, as the reader may see them. */
export function queryTunnels(held: HeldNetwork, rows: TunnelRow[], networkId: string, query: TunnelQuery): ListedTunnel[] {
  const seen = query.seenDevices === null ? null : new Set(query.seenDevices);
  const detail = (nodeId: string | null) => seen === null || nodeId === null || !held.nodes.get(nodeId)?.deviceId || seen.has(nodeId);
  const after = query.after;
  const listed: ListedTunnel[] = [];
  for (const row of rows) {
    if (after && (row.createdAt < after.createdAt || (row.createdAt === after.createdAt && row.id <= after.id))) continue;
    const toNodeId = held.nodeWithKey(row.peerPublicKey)?.id ?? null;
    if (query.nodeId && row.fromNodeId !== query.nodeId && toNodeId !== query.nodeId) continue;
    const visible = (seen?.has(row.fromNodeId) ?? true) || (detail(row.fromNodeId) && detail(toNodeId));
    if (!visible) continue;
    listed.push({ ...row, networkId, toNodeId });
    if (listed.length === query.limit) break;
  }
  return listed;
}
