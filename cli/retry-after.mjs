// When to ask again after the server said "not now" (429 rate limited, 503 a network's object busy or restarting).
// Every machine of a fleet hears the same Retry-After at the same moment: asked again all at once, they would
// overload the object again. Each waits the server's seconds plus up to half again, drawn at random.
import { ApiError } from "./errors.mjs";

/** The share of Retry-After added at most: 1 s becomes 1-1.5 s. */
export const RETRY_JITTER = 0.5;

/**
 * Milliseconds to wait before asking again, or null when the error gave no Retry-After.
 * @param {unknown} error
 * @param {{ capMs: number, random?: () => number }} options
 */
export function retryAfterMs(error, { capMs, random = Math.random }) {
  if (!(error instanceof ApiError) || (error.status !== 429 && error.status !== 503)) return null;
  const seconds = Number(error.retryAfter);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return Math.min(seconds * 1000 * (1 + RETRY_JITTER * random()), capMs);
}
