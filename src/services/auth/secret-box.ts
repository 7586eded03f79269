import type { Config } from "../../lib/env";

const encoder = new TextEncoder();
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const unb64url = (text: string) => new Uint8Array(Buffer.from(text, "base64url"));

const keys = new Map<string, Promise<CryptoKey>>();

/**
 * AES-256-GCM key derived from TOKEN_SECRET with HKDF (one purpose label per use), so a copy of the
 * database alone does not reveal TOTP secrets. Rotating TOKEN_SECRET makes sealed values unreadable:
 * users then enrol MFA again (docs/identity.md).
 */
function keyFor(config: Config, purpose: string): Promise<CryptoKey> {
  const cacheKey = `${purpose}\u0000${config.TOKEN_SECRET}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(config.TOKEN_SECRET), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: encoder.encode("wg-overlay secret-box"), info: encoder.encode(purpose) },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    keys.set(cacheKey, key);
  }
  return key;
}

/** `v1.<iv>.<ciphertext>`; `context` (e.g. the user id) is authenticated, so a value cannot move between rows. */
export async function seal(config: Config, purpose: string, plaintext: Uint8Array, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
    await keyFor(config, purpose),
    plaintext,
  );
  return `v1.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`;
}

export async function unseal(config: Config, purpose: string, sealed: string, context: string): Promise<Uint8Array> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("unknown sealed format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: unb64url(iv), additionalData: encoder.encode(context) },
    await keyFor(config, purpose),
    unb64url(data),
  );
  return new Uint8Array(plain);
}
