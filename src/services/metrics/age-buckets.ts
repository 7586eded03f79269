/** Heartbeat ages a histogram sorts nodes into (seconds): the offline threshold is 300 s by default. */
export const HEARTBEAT_AGE_BUCKETS = [30, 60, 120, 300, 600, 1800, 3600, 21_600, 86_400] as const;
/** WireGuard re-handshakes every 2 minutes on a live tunnel; past 180 s a tunnel end carries nothing. */
export const HANDSHAKE_AGE_BUCKETS = [60, 120, 180, 300, 600, 1800, 3600, 86_400] as const;
/** A pair with a handshake this recent, reported by either end, is direct (docs/nat.md). */
export const DIRECT_HANDSHAKE_SECONDS = 180;

/** Ages sorted into cumulative buckets: `le[i]` counts those at most `buckets[i]` seconds old. */
export interface AgeHistogram {
  aged: number;
  ageSum: number;
  le: number[];
}

/** The histogram of the ages at `now` of `instants` (ISO timestamps; nulls are in no bucket). */
export function ageHistogram(instants: readonly (string | null)[], buckets: readonly number[], now: Date): AgeHistogram {
  const histogram: AgeHistogram = { aged: 0, ageSum: 0, le: buckets.map(() => 0) };
  for (const instant of instants) {
    if (instant === null) continue;
    const age = Math.max(0, (now.getTime() - Date.parse(instant)) / 1000);
    histogram.aged++;
    histogram.ageSum += age;
    buckets.forEach((le, index) => {
      if (age <= le) histogram.le[index]!++;
    });
  }
  // Whole seconds: a sum that moved by less than a second is no change worth a D1 row.
  histogram.ageSum = Math.round(histogram.ageSum);
  return histogram;
}
