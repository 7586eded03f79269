/**
 * TXT data in RFC 1035 master-file form. A TXT record holds one or more <character-string>s of at
 * most 255 octets each (§3.3); readers such as SPF and DKIM concatenate them, so one long value is
 * stored as text and split only when rendered.
 */

export const TXT_MAX_BYTES = 4000;
export const CHARACTER_STRING_MAX_BYTES = 255;

const encoder = new TextEncoder();
/** Lone UTF-16 surrogates cannot be encoded as UTF-8; TextEncoder would silently substitute U+FFFD. */
const LONE_SURROGATE = /\p{Cs}/u;

export type TxtCheck = { ok: true; value: string } | { ok: false; message: string };

export function validateTxt(input: unknown): TxtCheck {
  if (typeof input !== "string") return { ok: false, message: "TXT value must be a string" };
  if (input.length === 0) return { ok: false, message: "TXT value must not be empty" };
  if (LONE_SURROGATE.test(input)) return { ok: false, message: "TXT value is not valid Unicode text" };
  const size = encoder.encode(input).length;
  if (size > TXT_MAX_BYTES) return { ok: false, message: `TXT value is ${size} bytes of UTF-8; the limit is ${TXT_MAX_BYTES}` };
  return { ok: true, value: input };
}

/** A UTF-8 continuation byte (10xxxxxx) never starts a character. */
const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;

/**
 * Splits the UTF-8 bytes into character-strings of at most 255 octets. A cut never falls inside a
 * multi-byte character, so every string is valid UTF-8 on its own and tools that print strings
 * one by one show readable text; ASCII values split at exactly 255.
 */
export function splitCharacterStrings(value: string): Uint8Array[] {
  const bytes = encoder.encode(value);
  const chunks: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + CHARACTER_STRING_MAX_BYTES, bytes.length);
    while (end < bytes.length && end > start && isContinuation(bytes[end]!)) end--;
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks.length > 0 ? chunks : [new Uint8Array(0)];
}

/**
 * One quoted character-string. Inside quotes only `"` and `\` are special (RFC 1035 §5.1); bytes
 * outside printable ASCII become \DDD so the file is plain ASCII whatever the text holds.
 */
export function quoteCharacterString(bytes: Uint8Array): string {
  let out = '"';
  for (const byte of bytes) {
    if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString().padStart(3, "0")}`;
  }
  return `${out}"`;
}

/** The RDATA of a TXT record as it appears in a zone file: quoted strings separated by spaces. */
export function renderTxtData(value: string): string {
  return splitCharacterStrings(value).map(quoteCharacterString).join(" ");
}
