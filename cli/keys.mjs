// WireGuard keys made on this machine: X25519 as `wg genkey` / `wg pubkey` print them, 32 raw bytes
// in standard base64. The private key never leaves the device; only the public key is sent.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import { OperationError } from "./errors.mjs";

// PKCS#8 wrapping of a raw X25519 scalar (RFC 8410): this prefix, then the 32 bytes.
const PKCS8_X25519_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");

const fromBase64Url = (text) => Buffer.from(text, "base64url");

/** `wg genkey` clamps the scalar (RFC 7748); do the same so the stored key has one spelling. */
function clamp(bytes) {
  bytes[0] &= 248;
  bytes[31] = (bytes[31] & 127) | 64;
  return bytes;
}

/** @returns {{ privateKey: string, publicKey: string }} both base64, 44 characters */
export function generateKeyPair() {
  const jwk = generateKeyPairSync("x25519").privateKey.export({ format: "jwk" });
  const privateKey = clamp(fromBase64Url(String(jwk.d))).toString("base64");
  return { privateKey, publicKey: publicKeyOf(privateKey) };
}

/** What `wg pubkey` prints for this private key. */
export function publicKeyOf(privateKey) {
  const raw = Buffer.from(privateKey.trim(), "base64");
  if (raw.length !== 32 || raw.toString("base64") !== privateKey.trim()) {
    throw new OperationError("the private key is not 32 bytes of base64");
  }
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_X25519_PREFIX, raw]), format: "der", type: "pkcs8" });
  return Buffer.from(String(createPublicKey(key).export({ format: "jwk" }).x), "base64url").toString("base64");
}
