/**
 * Text bound for a mail header (the subject). Relays turn the JSON we send into RFC 5322 headers,
 * so a CR or LF in a subject could end the header and start another (`Bcc:` injection), and bidi or
 * invisible characters could make a subject read differently from what it says. Every message
 * passes through here on its way to any transport, whatever built its subject.
 */

/** Controls, format characters (bidi, zero-width), surrogates, and every separator but the plain space. */
const NOT_HEADER_SAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu;

/** RFC 5322 §2.1.1 recommends lines of at most 78 characters; a subject gets a little more before folding. */
export const MAX_SUBJECT_LENGTH = 160;

/** One line of visible text: unsafe characters become spaces, runs of spaces collapse, long text is cut. */
export function headerText(text: string, max = MAX_SUBJECT_LENGTH): string {
  const line = text.replace(NOT_HEADER_SAFE, " ").replace(/ {2,}/g, " ").trim();
  if (line.length <= max) return line;
  // Cut on a code point boundary, so the cut never leaves half a surrogate pair.
  return `${Array.from(line)
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}

/** A recipient comes from a validated address; anything header-breaking in it is a bug, never sent. */
export function assertHeaderSafeAddress(address: string): void {
  if (new RegExp(NOT_HEADER_SAFE.source, "u").test(address) || /[\s<>,;"]/.test(address)) {
    throw new Error("refusing to mail an address holding control, separator or list characters");
  }
}
