import { z } from "@hono/zod-openapi";

/**
 * Characters no human-readable name or label may hold. Names travel into other systems (mail
 * subjects, audit views, terminals, zone comments, web pages), where these characters change meaning:
 * - Cc: C0/C1 controls and DEL, NUL, CR and LF among them (header injection, log forging);
 * - Cf: format characters: bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
 *   that reorder what a reader sees ("Trojan Source"), zero-width characters (U+200B–U+200D, U+2060,
 *   U+FEFF) that make two different names look identical, soft hyphens, invisible tags;
 * - Cs: lone UTF-16 surrogates, which are not text and break UTF-8 encoders downstream;
 * - Zl, Zp: the Unicode line and paragraph separators (U+2028, U+2029), line breaks in disguise.
 */
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/** The first unsafe character of `text` as "U+XXXX", or null when it has none. */
export function unsafeCharacter(text: string): string | null {
  const match = UNSAFE_CHARACTER.exec(text);
  if (!match) return null;
  return `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

export const UNSAFE_TEXT_MESSAGE = "Control, invisible or bidirectional formatting characters are not allowed";

/**
 * The one schema for names and short free text a person types: trimmed, within the field's length
 * limits, and free of the characters above (422 naming the code point). Letters of every script,
 * emoji and ordinary spaces stay allowed.
 */
export function displayName(limits: { min?: number; max: number }) {
  const base = z
    .string()
    .trim()
    .min(limits.min ?? 0)
    .max(limits.max);
  return base.superRefine((text, ctx) => {
    const found = unsafeCharacter(text);
    if (found) ctx.addIssue({ code: "custom", message: `${UNSAFE_TEXT_MESSAGE} (found ${found})` });
  });
}

const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, "gu");

/**
 * The same rule for text a running agent or device writes, where a refusal would cost more than the text:
 * a gateway report refused for its `error` would drop the node's applied revisions and liveness with it
 * (and a node that stops reporting is failed over). Each unsafe character becomes a space, runs of spaces
 * collapse, the ends are trimmed: one line of visible text ("ip: RTNETLINK answers\nFile exists" reads
 * "ip: RTNETLINK answers File exists"). Also applied where such text is read, for rows stored before.
 */
export function sanitisedDisplayText(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, " ").replace(/ {2,}/g, " ").trim();
}

/** The schema for that text: within its length limit (422 beyond it), never refused for its characters, stored clean. */
export function sanitisedText(limits: { max: number }) {
  return z.string().max(limits.max).overwrite(sanitisedDisplayText);
}
