import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../lib/env";
import type { ThrottleDecision, ThrottleRpc, ThrottleRule } from "./client";
import { SerialQueue } from "../../lib/serial-queue";

interface State {
  /** Epoch ms of counted attempts still inside the window, oldest first; never more than `limit`. */
  hits: number[];
  windowMs: number;
}

const KEY = "state";

/**
 * Attempt counters for one key (e.g. "login:account:<email hash>"), one instance per key.
 *
 * A Durable Object rather than the Workers rate-limit binding: that binding is eventually consistent
 * and counted per location, so a burst spread over locations or arriving at once gets past it. Here
 * every call for a key runs in one place, and an explicit queue runs them one at a time, so "read the
 * count, then add to it" never interleaves. (Without the queue, relying on input gates alone, a
 * 12-request burst under load once let 6 attempts past a limit of 5.)
 */
export class Throttle extends DurableObject<Env> implements ThrottleRpc {
  private readonly queue = new SerialQueue();

  private async load(windowMs: number, now: number): Promise<State> {
    const state = (await this.ctx.storage.get<State>(KEY)) ?? { hits: [], windowMs };
    return { hits: state.hits.filter((stamp) => stamp > now - windowMs), windowMs };
  }

  /** Counts an attempt when the key is under its limit: a sliding window over the last `limit` attempts. */
  take(rule: ThrottleRule): Promise<ThrottleDecision> {
    return this.queue.run(() => this.count(rule));
  }

  private async count(rule: ThrottleRule): Promise<ThrottleDecision> {
    const now = Date.now();
    const windowMs = rule.windowSeconds * 1000;
    const state = await this.load(windowMs, now);
    if (state.hits.length >= rule.limit) {
      // The attempt that must leave the window before another one fits.
      const blocking = state.hits[state.hits.length - rule.limit]!;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((blocking + windowMs - now) / 1000)) };
    }
    let stamp = now;
    while (state.hits.includes(stamp)) stamp += 1; // stamps double as receipts for release()
    state.hits.push(stamp);
    await this.ctx.storage.put(KEY, state);
    await this.ctx.storage.setAlarm(stamp + windowMs);
    return { allowed: true, stamp };
  }

  /** Takes back one counted attempt (e.g. a login that succeeded). */
  release(stamp: number): Promise<void> {
    return this.queue.run(async () => {
      const state = await this.ctx.storage.get<State>(KEY);
      if (!state) return;
      state.hits = state.hits.filter((hit) => hit !== stamp);
      await this.ctx.storage.put(KEY, state);
    });
  }

  /** Forgets every attempt (e.g. the account's owner proved who they are). */
  clear(): Promise<void> {
    return this.queue.run(() => this.ctx.storage.deleteAll());
  }

  /** Once the window has passed, an idle key leaves nothing behind. */
  override alarm(): Promise<void> {
    return this.queue.run(() => this.expire());
  }

  private async expire(): Promise<void> {
    const stored = await this.ctx.storage.get<State>(KEY);
    if (!stored) return;
    const state = await this.load(stored.windowMs, Date.now());
    if (state.hits.length === 0) {
      await this.ctx.storage.deleteAll();
      return;
    }
    await this.ctx.storage.put(KEY, state);
    await this.ctx.storage.setAlarm(state.hits.at(-1)! + state.windowMs);
  }
}
