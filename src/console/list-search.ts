// Search by name on the console's lists. The API's list routes filter by parent (networkId, groupId,
// regionId…) but not by name (docs/api.md: lists are cursor pages in creation order), so the console
// reads the API's pages from the cursor it was given and keeps the items whose name contains the words
// typed. It stops once a page's worth matched or after SCAN_PAGES requests, and hands back the API's cursor
// where it stopped: "Next page" continues the search there, so no item is skipped and no request is unbounded.

/** One page of an API list. */
export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** Matches that fill a page of the console's list (the API's pages are read 200 at a time). */
export const MATCHES_PER_PAGE = 50;
/** API pages read for one console page: 10 × 200 = 2,000 items searched before "Next page" asks to go on. */
export const SCAN_PAGES = 10;

/** The words typed into a list's search box (`?q=`), or undefined for none. */
export const searchWords = (q: string | undefined) => {
  const words = (q ?? "").trim().toLowerCase();
  return words === "" ? undefined : words.slice(0, 100);
};

/** Whether any of `texts` (a name, an email…) contains the words, case-insensitively. */
export const matches = (words: string, ...texts: Array<string | null | undefined>) =>
  texts.some((text) => (text ?? "").toLowerCase().includes(words));

/**
 * The console's page of a list: without words, the API's page at `cursor`; with words, the matching items
 * of as many API pages as it takes (up to SCAN_PAGES), and the API's cursor to go on from.
 * @param read one API page at a cursor (undefined: the first), `limit` items
 * @param texts what an item is searched by (its name; a member's email too)
 */
export async function searchList<T>(
  read: (cursor: string | undefined, limit: number) => Promise<ListPage<T>>,
  texts: (item: T) => Array<string | null | undefined>,
  q: string | undefined,
  cursor: string | undefined,
  limit = 200,
): Promise<ListPage<T> & { searched: number }> {
  const words = searchWords(q);
  if (!words) {
    const page = await read(cursor, limit);
    return { ...page, searched: page.items.length };
  }
  const items: T[] = [];
  let at = cursor;
  let searched = 0;
  for (let pages = 0; pages < SCAN_PAGES; pages++) {
    const page = await read(at, 200);
    searched += page.items.length;
    items.push(...page.items.filter((item) => matches(words, ...texts(item))));
    at = page.nextCursor ?? undefined;
    if (!at || items.length >= MATCHES_PER_PAGE) break;
  }
  return { items, nextCursor: at ?? null, searched };
}
