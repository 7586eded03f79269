import { createHmac } from "node:crypto";
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

function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of text.replace(/=+$/, "")) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
}

export const currentStep = () => Math.floor(Date.now() / 30_000);

/**
 * An independent TOTP (node:crypto HMAC-SHA-1) for `offset` steps after `base` (now by default): what an
 * authenticator app shows. Tests pin `base` so a 30 s boundary mid-test cannot change which code is which.
 */
export function totp(secret: string, offset = 0, base = currentStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(base + offset));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const start = mac[19]! & 0xf;
  return String((mac.readUInt32BE(start) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** The shared check (status, envelope, code); re-exported so identity suites keep importing it from here. */
export { expectError };

export function expectRetryAfter(response: ApiResponse, maxSeconds: number) {
  expectError(response, 429, "rate_limited");
  const seconds = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(maxSeconds);
}
