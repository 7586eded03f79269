// What an authenticator app computes, independently of the Worker's TOTP code (src/services/auth/totp.ts):
// node:crypto only, so the Node-only `unit` project can import it (test/identity/totp.test.ts) as well as
// the workerd suites (through identity-helpers.ts).
import { createHmac } from "node:crypto";

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
