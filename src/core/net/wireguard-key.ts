/**
 * WireGuard keys are 32-byte Curve25519 values written as standard (RFC 4648 §4) base64 with padding,
 * exactly what `wg genkey` / `wg pubkey` print.
 *
 * 32 bytes = 256 bits; 43 base64 characters carry 258 bits, so the 43rd character holds the last 4 key
 * bits followed by 2 bits that must be zero, and one "=" pads to 44. Requiring those zero bits makes the
 * text canonical: two different strings can never name the same key, so a uniqueness check on the
 * stored text is a uniqueness check on the key.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Base64 characters whose two low bits are zero: A, E, I, M, ... , 0, 4, 8 (every fourth one). */
const LAST_DATA_CHARACTERS = [...ALPHABET].filter((_, index) => index % 4 === 0).join("");

const KEY_PATTERN = new RegExp(`^[A-Za-z0-9+/]{42}[${LAST_DATA_CHARACTERS}]=$`);

export const WIREGUARD_KEY_LENGTH = 44;

/**
 * A gateway node may be created before its agent generated the key pair on the gateway: storage holds ''
 * then (the column stays NOT NULL, its unique index skips ''), the API and the routing core say null.
 * These two are the only place the two spellings meet.
 */
const NO_KEY = "";
export const publicKeyOrNull = (stored: string): string | null => (stored === NO_KEY ? null : stored);
export const storedPublicKey = (key: string | null | undefined): string => key ?? NO_KEY;

export function isWireGuardKey(text: string): boolean {
  return text.length === WIREGUARD_KEY_LENGTH && KEY_PATTERN.test(text);
}
