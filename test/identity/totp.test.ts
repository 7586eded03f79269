import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, matchingStep, otpauthUri, stepAt } from "../../src/services/auth/totp";
import { totp } from "./authenticator-app";

const RFC_SECRET = new TextEncoder().encode("12345678901234567890");

describe("TOTP (RFC 6238 / RFC 4226)", () => {
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
  ])("matches the RFC 6238 SHA-1 vector at T=%i", async (seconds, expected) => {
    expect(await hotp(RFC_SECRET, Math.floor(seconds / 30), 8)).toBe(expected);
  });

  it("round-trips base32 and agrees with an independent implementation", async () => {
    const secret = crypto.getRandomValues(new Uint8Array(20));
    const encoded = base32Encode(secret);
    expect(encoded).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(encoded)).toEqual(secret);
    expect(await hotp(secret, stepAt(Date.now()))).toBe(totp(encoded));
  });

  it("accepts ±1 step, never the last used step or an older one", async () => {
    const secret = crypto.getRandomValues(new Uint8Array(20));
    const encoded = base32Encode(secret);
    const now = stepAt(Date.now());
    expect(await matchingStep(secret, totp(encoded, -1), null)).toBe(now - 1);
    expect(await matchingStep(secret, totp(encoded, 1), null)).toBe(now + 1);
    expect(await matchingStep(secret, totp(encoded, 2), null)).toBeNull();
    expect(await matchingStep(secret, totp(encoded), now)).toBeNull();
    expect(await matchingStep(secret, totp(encoded, -1), now - 1)).toBeNull();
  });

  it("builds an otpauth URI authenticator apps read", () => {
    const uri = new URL(otpauthUri("wg-overlay.local", "ada@example.com", "JBSWY3DPEHPK3PXP"));
    expect(uri.protocol).toBe("otpauth:");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: "JBSWY3DPEHPK3PXP",
      issuer: "wg-overlay.local",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});
