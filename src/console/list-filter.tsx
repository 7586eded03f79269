// The search box above a console list (GET `?q=`, so a search is a link that can be shared and reloaded)
// and the one line that says what it found; list-search.ts does the reading.

/** A list's search form: the words typed, and the page's other filters kept as hidden fields. */
export function SearchBox({
  path,
  label,
  q,
  keep = {},
}: {
  path: string;
  /** What is searched, said in the label ("Search groups by name"). */
  label: string;
  q?: string;
  keep?: Record<string, string | undefined>;
}) {
  const kept = Object.entries(keep).filter((entry): entry is [string, string] => Boolean(entry[1]));
  const clear = kept.length > 0 ? `${path}?${new URLSearchParams(kept)}` : path;
  return (
    // <search> is the search landmark (role="search" on the form would say the same less directly).
    <search>
      <form method="get" action={path} class="search">
        {kept.map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <label for="q">{label}</label>
        <input id="q" name="q" type="search" value={q ?? ""} />
        <button type="submit" class="secondary">
          Search
        </button>
        {q && <a href={clear}>Show all</a>}
      </form>
    </search>
  );
}

/** After a search: how many matched among how many read, and whether "Next page" goes on searching. */
export function SearchResult({ q, shown, searched, more }: { q?: string; shown: number; searched: number; more: boolean }) {
  if (!q) return null;
  const tail = more ? "; the next page searches on." : ".";
  return (
    <p class="help" role="status">
      {shown === 0 ? "Nothing" : `${shown} ${shown === 1 ? "item" : "items"}`} matching “{q}” among {searched} searched{tail}
    </p>
  );
}
