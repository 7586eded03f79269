import type { Env } from "../../lib/env";

export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

export type ThrottleDecision = { allowed: true; stamp: number } | { allowed: false; retryAfterSeconds: number };

/**
 * The attempt counter for one key, as callers see it across RPC (the Durable Object in
 * src/objects/throttle/throttle.ts implements it). Declared here so services never import the class.
 */
export interface ThrottleRpc {
  take(rule: ThrottleRule): Promise<ThrottleDecision>;
  release(stamp: number): Promise<void>;
  clear(): Promise<void>;
}

export function throttleStub(env: Env, name: string): ThrottleRpc {
  return env.THROTTLE.get(env.THROTTLE.idFromName(name)) as unknown as ThrottleRpc;
}
