/**
 * Reading DNS presentation format back, as kdig prints it. TXT data arrives as quoted
 * character-strings with `\"`, `\\` and `\DDD` escapes; non-ASCII bytes are always \DDD, so the
 * bytes are rebuilt first and decoded as UTF-8 last.
 */

/** `"abc" "d\"e"` → "abcd\"e": the character-strings of one TXT record, concatenated. */
export function decodeTxtPresentation(line: string): string {
  const bytes: number[] = [];
  let index = 0;
  const text = line.trim();
  while (index < text.length) {
    if (text[index] === " ") {
      index++;
      continue;
    }
    if (text[index] !== '"') throw new Error(`Unquoted TXT data in ${JSON.stringify(line)}`);
    index++;
    while (index < text.length && text[index] !== '"') {
      if (text[index] === "\\") {
        const digits = text.slice(index + 1, index + 4);
        if (/^\d{3}$/.test(digits)) {
          bytes.push(Number(digits));
          index += 4;
        } else {
          bytes.push(text.charCodeAt(index + 1));
          index += 2;
        }
      } else {
        bytes.push(text.charCodeAt(index));
        index++;
      }
    }
    if (text[index] !== '"') throw new Error(`Unterminated TXT string in ${JSON.stringify(line)}`);
    index++;
  }
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(new Uint8Array(bytes));
}

/** How many character-strings a TXT answer line holds, to check how the renderer split it. */
export function countTxtStrings(line: string): number {
  return [...line.matchAll(/"(?:[^"\\]|\\.)*"/g)].length;
}
