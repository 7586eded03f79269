/**
 * RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30 s steps) on WebCrypto, written here rather than taken from a
 * library so the matched step comes back to the caller, which stores it: a code is never accepted twice.
 */
import { base32Encode as encode, RFC4648_ALPHABET } from "../../lib/base32";
import { sameText } from "../../lib/same-text";

export const TOTP = { digits: 6, periodSeconds: 30, skewSteps: 1, secretBytes: 20 } as const;

const BASE32 = RFC4648_ALPHABET;

/** RFC 4648 base32 without padding: what authenticator apps expect in otpauth URIs. */
export const base32Encode = (bytes: Uint8Array) => encode(bytes, RFC4648_ALPHABET);

export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** RFC 4226 HOTP value of `counter`, as a zero-padded decimal string. */
export async function hotp(secret: Uint8Array, counter: number, digits: number = TOTP.digits): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const message = new DataView(new ArrayBuffer(8));
  message.setBigUint64(0, BigInt(counter));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message.buffer));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

export const stepAt = (epochMs: number) => Math.floor(epochMs / 1000 / TOTP.periodSeconds);

/**
 * The step (within ±1 of now) whose code equals `code`, considering only steps after `lastUsedStep`;
 * null when none does. Every candidate is computed, so timing does not tell which step matched.
 */
export async function matchingStep(
  secret: Uint8Array,
  code: string,
  lastUsedStep: number | null,
  now = Date.now(),
): Promise<number | null> {
  const current = stepAt(now);
  let found: number | null = null;
  for (let step = current - TOTP.skewSteps; step <= current + TOTP.skewSteps; step++) {
    const matches = sameText(await hotp(secret, step), code);
    if (matches && found === null && (lastUsedStep === null || step > lastUsedStep)) found = step;
  }
  return found;
}

export const otpauthUri = (issuer: string, account: string, secret: string) =>
  `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?` +
  new URLSearchParams({ secret, issuer, algorithm: "SHA1", digits: String(TOTP.digits), period: String(TOTP.periodSeconds) });
