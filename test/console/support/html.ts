/** Small readers of console HTML for tests: what a person (or a screen reader) would get from the page. */

const decode = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
export const textOf = (html: string) =>
  decode(html.replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ")
    .trim();

/** The items of the list labelled `label` (aria-label), as text, in document order. */
export function listItems(html: string, label: string): string[] {
  const start = html.indexOf(`aria-label="${label}"`);
  if (start < 0) throw new Error(`no list labelled ${label}`);
  const end = html.indexOf("</ol>", start);
  return [...html.slice(start, end).matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => textOf(match[1] ?? ""));
}

/** The action of every POST form in the page except the header's sign-out. */
export const postForms = (html: string) =>
  [...html.matchAll(/<form method="post" action="([^"]*)"/g)].map((match) => match[1]).filter((action) => action !== "/sign-out");

/** The text of the table row whose first cell is `name`. */
export function rowOf(html: string, name: string): string {
  const row = [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)]
    .map((match) => match[1] ?? "")
    .find((cells) => textOf(cells).startsWith(`${name} `));
  if (!row) throw new Error(`no row for ${name}`);
  return textOf(row);
}
