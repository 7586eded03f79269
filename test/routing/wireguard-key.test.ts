import { describe, expect, it } from "vitest";
import { isWireGuardKey } from "../../src/core/net/wireguard-key";

describe("isWireGuardKey", () => {
  it.each([
    "vh7a/x5uW5XNgYSeWNUjFBgFbtM9a0cs4JUMi6aitzA=", // `wg genkey | wg pubkey`
    "vKLquDeHQcU+Bitjah7LdG8wTA/dsZJ2ll7NfqO5exI=", // `wg genkey | wg pubkey`, with + and /
    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", // bytes 0..31
    "//////////////////////////////////////////8=", // 32 bytes of 0xff: the last data character is "8"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
  ])("accepts %s", (key) => {
    expect(isWireGuardKey(key)).toBe(true);
  });

  it.each([
    ["too short", "vh7a/x5uW5XNgYSeWNUjFBgFbtM9a0cs4JUMi6aitz="],
    ["too long", "vh7a/x5uW5XNgYSeWNUjFBgFbtM9a0cs4JUMi6aitzAA="],
    ["missing padding", "vh7a/x5uW5XNgYSeWNUjFBgFbtM9a0cs4JUMi6aitzAA"],
    ["unused bits set (A -> B)", "vh7a/x5uW5XNgYSeWNUjFBgFbtM9a0cs4JUMi6aitzB="],
    ["unused bits set (8 -> 9)", "//////////////////////////////////////////9="],
    ["url-safe alphabet", "vh7a_x5uW5XNgYSeWNUjFBgFbtM9a0cs4JUMi6aitzA="],
    ["33 bytes", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g"],
    ["31 bytes", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHg=="],
    ["whitespace", " vh7a/x5uW5XNgYSeWNUjFBgFbtM9a0cs4JUMi6aitzA="],
    ["trailing newline", "vh7a/x5uW5XNgYSeWNUjFBgFbtM9a0cs4JUMi6aitzA=\n"],
    ["hex", "a".repeat(64)],
    ["empty", ""],
  ])("refuses a key that is %s", (_, key) => {
    expect(isWireGuardKey(key)).toBe(false);
  });
});
