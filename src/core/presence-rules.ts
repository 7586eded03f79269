import type { Config } from "../lib/env";

/**
 * Instants presence is judged against (ISO strings of one format sort as time): the network's object judges its
 * device nodes (objects/network/clocks/presence-clock.ts), the minute cron every other node (src/scheduled), by the same rules.
 */
export function cutoffs(config: Pick<Config, "OFFLINE_AFTER_SECONDS" | "DRIFT_AFTER_SECONDS">, now: Date) {
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

/** Each detector handles at most this many transitions per run; the rest wait for the next one. */
export const MAX_TRANSITIONS_PER_RUN = 500;
