import type { CursorPosition } from "../../../lib/pagination";
import type { HeldNetwork } from "../memory/held-network";
import type { HotStore, TunnelRow } from "./hot-store";

/** What a reader asks of one network's tunnels (services/networks/views/tunnel-list.ts). */
export interface TunnelQuery {
  /** Tunnels reported by, or leading to, this node. */
  nodeId?: string;
  /**
   * Device nodes whose detail the reader may see (services/networks/device-node-privacy.ts): null, every one (managers, platform
   * admins); else their own devices. A tunnel shows when its reporter is one of them, or when neither end is
   * another member's device.
   */
  seenDevices: string[] | null;
  after?: CursorPosition;
  limit: number;
}

export type ListedTunnel = TunnelRow & { networkId: string; toNodeId: string | null };

/** Rows read from the store at a time while a page fills (rows the reader may not see are skipped). */
const CHUNK = 200;

/** One network's page of tunnels in (createdAt, id) order, at most `limit` rows, as the reader may see them. */
export function queryTunnels(held: HeldNetwork, hot: HotStore, networkId: string, query: TunnelQuery): ListedTunnel[] {
  const seen = query.seenDevices === null ? null : new Set(query.seenDevices);
  const detail = (nodeId: string | null) => seen === null || nodeId === null || !held.nodes.get(nodeId)?.deviceId || seen.has(nodeId);
  const touching = query.nodeId ? { nodeId: query.nodeId, key: held.nodes.get(query.nodeId)?.publicKey ?? null } : undefined;
  const listed: ListedTunnel[] = [];
  for (let after = query.after; listed.length < query.limit; ) {
    const rows = hot.tunnelPage(after, CHUNK, touching);
    for (const row of rows) {
      const toNodeId = held.nodeWithKey(row.peerPublicKey)?.id ?? null;
      const visible = (seen?.has(row.fromNodeId) ?? true) || (detail(row.fromNodeId) && detail(toNodeId));
      if (visible && listed.length < query.limit) listed.push({ ...row, networkId, toNodeId });
    }
    if (rows.length < CHUNK) break;
    after = rows[rows.length - 1]!;
  }
  return listed;
}
