/**
 * Waits after failed attempt 1, 2, ... 5. Attempt 6 failing ends the delivery as `failed`: about 7 h 12 min
 * after the first try. The cron runs every minute, so a wait is "at least", never earlier.
 */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 21_600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** When attempt `attempts + 1` is due, or null when `attempts` failures are all a delivery gets. */
export function nextAttemptAfter(attempts: number, now: Date): string | null {
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  if (attempts >= MAX_ATTEMPTS || delay === undefined) return null;
  return new Date(now.getTime() + delay * 1000).toISOString();
}
