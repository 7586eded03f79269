import { expect } from "vitest";
import { call, get, type ApiResponse } from "../helpers/api";
import { unique } from "../helpers/factories";
import { expectError } from "../helpers/expect-error";

let addressCounter = 0;
/** A fresh client address per call: throttle buckets per address never leak between tests. */
export const freshAddress = () => `198.18.${Math.floor(addressCounter / 250) % 250}.${(addressCounter++ % 250) + 1}`;

export const uniqueEmail = (label = "id") => `${unique(label)}@example.com`;

/** A request from a given client address (CF-Connecting-IP, as Cloudflare's edge sets it). */
export const from = (address: string) => ({
  post: <T = any>(path: string, body: unknown, token?: string) =>
    call<T>("POST", path, { body, token, headers: { "CF-Connecting-IP": address } }),
  del: <T = any>(path: string, body: unknown, token?: string) =>
    call<T>("DELETE", path, { body, token, headers: { "CF-Connecting-IP": address } }),
});

/** The newest message the dev transport stored for an address, and the token of `prefix` in it. */
export async function mailedToken(to: string, prefix: "prt" | "inv"): Promise<string> {
  // Reset mail is sent after the response (so timing reveals nothing): give it a moment to land.
  let mail = await get(`/dev/mail?to=${encodeURIComponent(to)}`);
  for (let tries = 0; tries < 50 && mail.status === 200 && mail.body.items.length === 0; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    mail = await get(`/dev/mail?to=${encodeURIComponent(to)}`);
  }
  expect(mail.status, mail.text).toBe(200);
  const match = new RegExp(`${prefix}_[A-Za-z0-9_-]{43}`).exec(mail.body.items[0]?.text ?? "");
  expect(match, `no ${prefix} token mailed to ${to}`).not.toBeNull();
  return match![0];
}

/** Counts after a pause: mail sent after the response (password reset) must have had time to land. */
export async function mailCount(to: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  return (await get(`/dev/mail?to=${encodeURIComponent(to)}&limit=50`)).body.items.length as number;
}

/** The authenticator app's side of TOTP, in plain Node (test/identity/authenticator-app.ts, which the Node-only totp suite imports). */
export { currentStep, totp } from "./authenticator-app";

/** The shared check (status, envelope, code); re-exported so identity suites keep importing it from here. */
export { expectError };

export function expectRetryAfter(response: ApiResponse, maxSeconds: number) {
  expectError(response, 429, "rate_limited");
  const seconds = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(maxSeconds);
}
