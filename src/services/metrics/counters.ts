import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { metricCounters } from "../../db/schema";
import { nowIso } from "../../lib/ids";
import { describeForLog } from "../../lib/log";

/** How a sign-in failed: a wrong email or password, or a wrong second-factor code. */
export type LoginFailureMethod = "password" | "mfa";

export const LOGIN_FAILURE_METHODS: readonly LoginFailureMethod[] = ["password", "mfa"];

const loginFailureKey = (method: LoginFailureMethod) => `login_failures:${method}`;

/**
 * One more failed sign-in, durably: a single-row upsert (a failed login writes nothing else to D1; its
 * attempt counter lives in the Throttle Durable Object, which forgets). Failures to count are the
 * caller's to swallow: the answer to the sign-in must not depend on them.
 */
export const countLoginFailure = (db: Db, method: LoginFailureMethod) => {
  const now = nowIso();
  return db
    .insert(metricCounters)
    .values({ key: loginFailureKey(method), value: 1, updatedAt: now })
    .onConflictDoUpdate({ target: metricCounters.key, set: { value: sql`${metricCounters.value} + 1`, updatedAt: now } });
};

/** Every login failure counter (0 for a method that never failed), from the rows the scrape read. */
export function loginFailures(rows: readonly { key: string; value: number }[]) {
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  return LOGIN_FAILURE_METHODS.map((method) => ({ method, value: byKey.get(loginFailureKey(method)) ?? 0 }));
}

/** countLoginFailure for sign-in paths: awaited (so a scrape right after sees it), never throwing (logged). */
export async function recordLoginFailure(db: Db, method: LoginFailureMethod): Promise<void> {
  try {
    await countLoginFailure(db, method);
  } catch (error) {
    console.error(JSON.stringify({ counter: "login_failures", method, ...describeForLog(error) }));
  }
}
