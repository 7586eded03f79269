import type { Config } from "../lib/env";

/** Instants the detectors compare ISO timestamps against (ISO strings of one format sort as time). */
export function cutoffs(config: Config, now: Date) {
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
  return {
    now: now.toISOString(),
    /** lastSeenAt before this: offline. */
    onlineSince: ago(config.OFFLINE_AFTER_SECONDS),
    /** behindSince at or before this: drifted. */
    driftSince: ago(config.DRIFT_AFTER_SECONDS),
  };
}

export type Cutoffs = ReturnType<typeof cutoffs>;

/** Each detector handles at most this many transitions per run; the rest wait one minute. */
export const MAX_TRANSITIONS_PER_RUN = 500;
