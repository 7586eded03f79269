import type { Context } from "hono";
import { getConfig, type Config } from "../../lib/env";
import { ApiError } from "../../lib/errors";
import type { AppEnv } from "../../lib/types";
import { sha256 } from "../auth/tokens";
import { throttleStub, type ThrottleRule } from "../../objects/throttle/client";

/** `invite` is accepting an invite; `invite-send` is mailing one (keyed by the inviting account). */
export type ThrottledAction = "login" | "mfa" | "reset" | "invite" | "invite-send";

type RuleVar = { [K in keyof Config]-?: Config[K] extends ThrottleRule ? K : never }[keyof Config];
type Scope = "account" | "address" | "pair";

/**
 * `pair` (one account from one client address) is the tight limit of actions a stranger can aim at
 * someone else's account (login, reset requests): their failures then lock only their own address out of
 * that account, and `account` is a far higher ceiling that only an attack from many addresses reaches
 * (docs/security.md, Round 2). Without `pair`, `account` is the tight limit itself: MFA and invite
 * acceptance count the account only once the caller holds a live challenge or invite.
 */
const RULES: Record<ThrottledAction, { account: RuleVar; address: RuleVar; pair?: RuleVar }> = {
  login: { pair: "THROTTLE_LOGIN_PAIR", account: "THROTTLE_LOGIN_ACCOUNT", address: "THROTTLE_LOGIN_ADDRESS" },
  mfa: { account: "THROTTLE_MFA_ACCOUNT", address: "THROTTLE_MFA_ADDRESS" },
  reset: { pair: "THROTTLE_RESET_PAIR", account: "THROTTLE_RESET_ACCOUNT", address: "THROTTLE_RESET_ADDRESS" },
  invite: { account: "THROTTLE_INVITE_ACCOUNT", address: "THROTTLE_INVITE_ADDRESS" },
  "invite-send": { account: "THROTTLE_INVITE_SEND_ACCOUNT", address: "THROTTLE_INVITE_SEND_ADDRESS" },
};

/**
 * The client address as Cloudflare's edge reports it (clients cannot set CF-Connecting-IP there: the
 * edge overwrites it). Without it (local dev, tests that do not send it) every caller shares one bucket.
 */
export const clientAddress = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip")?.trim() || "unknown";

/** Accounts are keyed by the normalised email's hash, whether or not the account exists. */
export const accountKey = (emailOrUserId: string) => emailOrUserId.trim().toLowerCase();

export interface Attempt {
  /**
   * The caller proved itself: forget the failures of its own key (the pair, or the account where there is
   * no pair) and give the other buckets this attempt back. A ceiling is never cleared: one success of the
   * owner must not hand a distributed attack a fresh budget.
   */
  succeeded(): Promise<void>;
}

/**
 * Counts one attempt against the address, account and (where `action` has one) pair buckets; throws 429 with
 * Retry-After when any of them is full. Counting before the work (and refunding on success) means a burst of
 * parallel attempts cannot all pass a check that only looks at past failures. `address: false` counts
 * only the account, for flows that learn the account after counting the address (token lookups).
 */
export async function countAttempt(
  c: Context<AppEnv>,
  action: ThrottledAction,
  keys: { account?: string; address?: boolean },
): Promise<Attempt> {
  const config = getConfig(c.env);
  const rules = RULES[action];
  const address = clientAddress(c);
  const scopes: { scope: Scope; value: string; rule: ThrottleRule }[] = [];
  if (keys.address !== false) scopes.push({ scope: "address", value: address, rule: config[rules.address] });
  if (keys.account) scopes.push({ scope: "account", value: accountKey(keys.account), rule: config[rules.account] });
  if (keys.account && keys.address !== false && rules.pair) {
    scopes.push({ scope: "pair", value: `${accountKey(keys.account)}\n${address}`, rule: config[rules.pair] });
  }
  const clearedOnSuccess: Scope = rules.pair ? "pair" : "account";

  const results = await Promise.all(
    scopes.map(async ({ scope, value, rule }) => {
      const stub = throttleStub(c.env, `${action}:${scope}:${sha256(value)}`);
      return { scope, stub, decision: await stub.take(rule) };
    }),
  );
  const denied = results.filter((result) => !result.decision.allowed);
  if (denied.length > 0) {
    // A refused attempt does not use up the budget of the bucket that still had room.
    await Promise.all(results.map((r) => (r.decision.allowed ? r.stub.release(r.decision.stamp) : undefined)));
    const retryAfter = Math.max(...denied.map((r) => (r.decision.allowed ? 0 : r.decision.retryAfterSeconds)));
    throw new ApiError("rate_limited", "Too many attempts; try again later", { headers: { "Retry-After": String(retryAfter) } });
  }
  const counted = results.map((r) => ({ scope: r.scope, stub: r.stub, stamp: r.decision.allowed ? r.decision.stamp : 0 }));
  return {
    async succeeded() {
      await Promise.all(counted.map((entry) => (entry.scope === clearedOnSuccess ? entry.stub.clear() : entry.stub.release(entry.stamp))));
    },
  };
}
