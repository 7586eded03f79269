/** RFC 4648's alphabet (otpauth secrets) and Crockford's lower-case one (ids: no i, l, o, u to misread). */
export const RFC4648_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const CROCKFORD_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** Base32 without padding: 5 bits a character, the last one zero-filled. */
export function base32Encode(bytes: Uint8Array, alphabet: string = RFC4648_ALPHABET): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
