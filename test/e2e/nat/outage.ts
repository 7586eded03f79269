// How long a continuous ping (ping-watch.ts) went unanswered around a break the test makes: the longest gap
// between replies from just before the break until the replies are steady again. Measured over that whole
// window, not as "the first reply after": a reply already in flight when the break was made would otherwise
// count as a recovery that never happened.
import type { PingWatch } from "../gateway/ping-watch.ts";

/** Every 450 ms of the last `ms` had a reply (the watch pings every 200 ms). */
function answeredFor(pings: PingWatch, ms: number, now = Date.now()): boolean {
  const stamps = [now - ms, ...pings.replies().filter((t) => t >= now - ms), now];
  return stamps.every((t, i) => i === 0 || t - stamps[i - 1]! <= 450);
}

/**
 * Runs `breakIt`, then waits (up to `timeoutMs`) for 2 s of steady replies that all came after it; returns the
 * longest silence from the last reply before the break until then, or null when the replies never steadied.
 */
export async function outageAround(pings: PingWatch, breakIt: () => Promise<void>, timeoutMs: number): Promise<number | null> {
  const from = Date.now();
  await breakIt();
  const broken = Date.now();
  while (Date.now() < broken + timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (Date.now() - broken >= 2_000 && answeredFor(pings, 2_000)) return pings.longestGap(from, Date.now())?.ms ?? null;
  }
  return null;
}
