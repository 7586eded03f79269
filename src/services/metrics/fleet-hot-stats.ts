import type { StoredAgeHistogram } from "../../db/schema";

/** What a network's object last wrote to network_hot_stats (or nulls: it never checked). */
interface HotColumns {
  nodesOnline: number | null;
  nodesBehind: number | null;
  nodesUnreported: number | null;
  heartbeatAges: StoredAgeHistogram | null;
  tunnelEnds: number | null;
  handshakeAges: StoredAgeHistogram | null;
  directPairs: number | null;
}

/** A row of D1's age columns (fleet-queries.ts ageColumns): aged, ageSum, le<i>. */
type AgeRow = Record<string, unknown>;

/** D1's age columns (le<i>, aged, ageSum) plus an object's histogram of the same buckets. */
function addAges<T extends object>(row: T, ages: StoredAgeHistogram | null): T {
  if (!ages) return row;
  const columns = row as AgeRow;
  const merged: Record<string, unknown> = {
    ...row,
    aged: Number(columns.aged ?? 0) + ages.aged,
    ageSum: Number(columns.ageSum ?? 0) + ages.ageSum,
  };
  ages.le.forEach((count, index) => {
    merged[`le${index}`] = Number(columns[`le${index}`] ?? 0) + count;
  });
  return merged as T;
}

const emptyAges = (ages: StoredAgeHistogram) => ({
  aged: 0,
  ageSum: 0,
  ...Object.fromEntries(ages.le.map((_, index) => [`le${index}`, 0])),
});

/**
 * The scrape's D1 figures with what the networks' objects wrote (network_hot_stats, docs/metrics.md "Hot state"):
 * device nodes' presence, revisions and beat ages add to D1's counts of the other nodes; the objects' tunnels
 * and direct pairs add to what D1 still holds of networks whose objects have not taken theirs over.
 */
export function withHotStats<
  Network extends { id: string; online: number; behind: number; unreported: number; hot: HotColumns | null },
  Tunnel extends { networkId: string; ends: number },
  F extends {
    networkRows: Network[];
    tunnelRows: Tunnel[];
    peerPaths: { relay: { networkId: string; pairs: number }[]; direct: { networkId: string; pairs: number }[] };
  },
>(fleet: F): F {
  const tunnels = new Map(fleet.tunnelRows.map((row) => [row.networkId, row]));
  const direct = new Map(fleet.peerPaths.direct.map((row) => [row.networkId, row.pairs]));
  const networkRows = fleet.networkRows.map((row) => {
    const hot = row.hot;
    if (!hot || hot.nodesOnline === null) return row;
    if (hot.tunnelEnds && hot.handshakeAges) {
      const base = tunnels.get(row.id) ?? ({ networkId: row.id, ends: 0, ...emptyAges(hot.handshakeAges) } as unknown as Tunnel);
      tunnels.set(row.id, addAges({ ...base, ends: base.ends + hot.tunnelEnds }, hot.handshakeAges));
    }
    if (hot.directPairs) direct.set(row.id, (direct.get(row.id) ?? 0) + hot.directPairs);
    return addAges(
      {
        ...row,
        online: row.online + hot.nodesOnline,
        behind: row.behind + (hot.nodesBehind ?? 0),
        unreported: row.unreported + (hot.nodesUnreported ?? 0),
      },
      hot.heartbeatAges,
    );
  });
  return {
    ...fleet,
    networkRows,
    tunnelRows: [...tunnels.values()],
    peerPaths: { ...fleet.peerPaths, direct: [...direct].map(([networkId, pairs]) => ({ networkId, pairs })) },
  };
}
