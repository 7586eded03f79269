// Keys as `wg genkey` / `wg pubkey` make them: checked against RFC 7748's vector and the real `wg`.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cli } from "./support/cli.ts";

const hasWg = spawnSync("sh", ["-c", "command -v wg"]).status === 0;
if (!hasWg) console.warn("\n!!! SKIPPING the `wg pubkey` comparison: wireguard-tools (wg) is not installed !!!\n");

const hex = (text: string) => Buffer.from(text, "hex").toString("base64");

describe("WireGuard keys", () => {
  it("derives the public key of RFC 7748 section 6.1 (Alice)", () => {
    const alice = hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    expect(cli.keys.publicKeyOf(alice)).toBe(hex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"));
  });

  it("makes 32-byte base64 keys, the private one clamped like `wg genkey`", () => {
    const { privateKey, publicKey } = cli.keys.generateKeyPair();
    for (const key of [privateKey, publicKey]) expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const raw = Buffer.from(privateKey, "base64");
    expect(raw[0]! & 7).toBe(0);
    expect(raw[31]! & 0xc0).toBe(0x40);
    expect(cli.keys.generateKeyPair().privateKey).not.toBe(privateKey);
  });

  it("rejects a private key that is not 32 bytes of base64", () => {
    for (const bad of ["", "abc", Buffer.alloc(31).toString("base64"), `${Buffer.alloc(32).toString("base64")}x`]) {
      expect(() => cli.keys.publicKeyOf(bad)).toThrow("the private key is not 32 bytes of base64");
    }
  });

  it.skipIf(!hasWg)("agrees with `wg pubkey` on its own keys and on keys from `wg genkey`", () => {
    const wg = (args: string[], input?: string) => spawnSync("wg", args, { input, encoding: "utf8" }).stdout.trim();
    for (let i = 0; i < 5; i++) {
      const ours = cli.keys.generateKeyPair();
      expect(wg(["pubkey"], `${ours.privateKey}\n`)).toBe(ours.publicKey);
      const theirs = wg(["genkey"]);
      expect(cli.keys.publicKeyOf(theirs)).toBe(wg(["pubkey"], `${theirs}\n`));
    }
  });
});
