import type { Config, Env } from "../../lib/env";
import { ApiError } from "../../lib/errors";
import { throttleStub } from "../../objects/throttle/client";

/** The answers that say the caller may not make this write (or that the resource is not theirs to see). */
const REFUSALS = new Set([401, 403, 404]);

/** Users this isolate holds back: user id → epoch ms until which their writes answer 429 (bounded: oldest go first). */
const heldBack = new Map<string, number>();
const HELD_BACK_MAX = 10_000;

/**
 * A per-user limit on refused writes across networks (security round 4): the writes a network's object
 * authorises itself reach that object on the caller's word, so a caller refused again and again (probing ids,
 * another tenant's networks) is held back. The count lives in one Throttle object per user (strongly
 * consistent); an isolate that learns from it that the user is over the limit answers the user's writes 429 with
 * Retry-After until the window frees a slot, without asking again. Each other isolate lets at most one more
 * refused write through before it learns the same, so a permitted write never pays for the check.
 */
export function heldBackFor(userId: string, now = Date.now()): ApiError | null {
  const until = heldBack.get(userId);
  if (until === undefined) return null;
  if (until <= now) {
    heldBack.delete(userId);
    return null;
  }
  const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
  return new ApiError("rate_limited", "Too many refused writes; try again later", { headers: { "Retry-After": String(retryAfter) } });
}

/** After a write answered `status`: a refusal counts against the user, and one past the limit holds them back. */
export async function countIfRefused(env: Env, config: Config, userId: string, status: number) {
  if (!REFUSALS.has(status)) return;
  const decision = await throttleStub(env, `refused-writes:${userId}`).take(config.THROTTLE_REFUSED_WRITES);
  if (decision.allowed) return;
  if (heldBack.size >= HELD_BACK_MAX) heldBack.delete(heldBack.keys().next().value as string);
  heldBack.set(userId, Date.now() + decision.retryAfterSeconds * 1000);
}
