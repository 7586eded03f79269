/**
 * Recent positive session checks, per isolate, for reads only. A read by a live session skips its D1
 * read for a few seconds after the last one; any session-ending change made in this isolate (logout,
 * revocation, a user's role, disabling or deletion) forgets everything at once. Another isolate may
 * serve reads on an ended session for at most LIVE_FOR_MS more (docs/security.md, residual risks);
 * writes always check D1.
 */
export const LIVE_FOR_MS = 5_000;
const MAX_ENTRIES = 10_000;

const liveUntil = new Map<string, number>();
/** Bumped by every forget: a check that started before one must not store its (possibly stale) verdict. */
let generation = 0;

export const currentGeneration = () => generation;

export const sessionKey = (userId: string, sessionId: string, role: string) => `${sessionId}\u0000${userId}\u0000${role}`;

export function recentlyLive(key: string, now = Date.now()): boolean {
  const until = liveUntil.get(key);
  if (until === undefined) return false;
  if (until > now) return true;
  liveUntil.delete(key);
  return false;
}

export function rememberLive(key: string, startedAt: number, now = Date.now()): void {
  if (startedAt !== generation) return;
  // Bounded: when full, start over rather than track ages (a miss only costs one D1 read).
  if (liveUntil.size >= MAX_ENTRIES) liveUntil.clear();
  liveUntil.set(key, now + LIVE_FOR_MS);
}

export function forgetLiveSessions(): void {
  generation++;
  liveUntil.clear();
}
