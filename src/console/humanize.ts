/**
 * The API's refusals name fields by their JSON path and things by their ids ("gatewayPath.1 (node_…) repeats an
 * earlier hop"); a person filled in a form of labelled fields and picked things by name. These rewrite the
 * API's sentence with what the page knows (names of nodes, pools, gateways; the path as submitted) without
 * changing what it says. Ids the page cannot name stay as they are.
 */
export type Names = ReadonlyMap<string, string>;

const ID = /\b(?:node|gpl|gw|reg|grp|net|usr|dev|pol)_[A-Za-z0-9]+/g;

const hopNumber = (index: string) => Number(index) + 1;

export function humanize(text: string, names: Names = new Map(), path: readonly string[] = []): string {
  const nameOf = (id: string) => names.get(id) ?? id;
  return (
    text
      .replace(/gatewayPath\.(\d+) \(([^)\s]+)\) repeats an earlier hop/g, (_, index: string, id: string) => {
        const first = path.indexOf(id);
        const earlier = first >= 0 && first < Number(index) ? `hop ${first + 1}` : "an earlier hop";
        return `Hop ${hopNumber(index)} (${nameOf(id)}) repeats ${earlier}`;
      })
      .replace(/gatewayPath\.(\d+) \(([^)\s]+)\)/g, (_, index: string, id: string) => `Hop ${hopNumber(index)} (${nameOf(id)})`)
      .replace(/\bgatewayPath\.(\d+)/g, (_, index: string) => `Hop ${hopNumber(index)}`)
      // A pool's members, in the form's priority order ("members.1 (node_…) repeats an earlier member").
      .replace(/\bmembers\.(\d+) \(([^)\s]+)\)/g, (_, index: string, id: string) => `Member ${hopNumber(index)} (${nameOf(id)})`)
      .replace(/^gatewayPath\b/, "The gateway path")
      .replace(/\bgatewayPath\b/g, "the gateway path")
      .replace(ID, (id) => nameOf(id))
      // 'named "db" (net_…)' once the id is a name reads 'named "db" (db)': say the name once.
      .replace(/"([^"]+)" \(\1\)/g, '"$1"')
  );
}

/** A form's labels by the API's field path ("gatewayPath.0" → "Hop 1"), and the form field that holds it. */
export interface FieldMap {
  [apiPath: string]: { label: string; field: string };
}

/**
 * Where a refusal belongs: its field path; a hop its sentence names ("gatewayPath.2 (…) …" → hop 3); else the
 * nearest field that holds the path ("gatewayEligibility.regionIds.0" → the regions field, "members.1.nodeId"
 * → "members.1" when the form has one select per member).
 */
export function placeOf(apiPath: string, map: FieldMap): { label: string; field: string } | undefined {
  const known = map[apiPath];
  if (known) return known;
  const hop = /^gatewayPath\.(\d+)/.exec(apiPath);
  if (hop?.[1] !== undefined) return { label: `Hop ${hopNumber(hop[1])}`, field: `hop${hopNumber(hop[1])}` };
  const parts = apiPath.split(".");
  for (let end = parts.length - 1; end > 0; end--) {
    const holder = map[parts.slice(0, end).join(".")];
    if (holder) return holder;
  }
  return undefined;
}

/**
 * Refusals the API says in a sentence without fields[] (a 409 such as "The group already has a network named
 * …") that are still about one field: each pattern names the API path whose form field they belong beside.
 */
export type SentenceFields = ReadonlyArray<readonly [RegExp, string]>;

/** The API path a sentence is about, when the API put it in the sentence rather than in fields[]. */
export const pathInSentence = (message: string) => /\b((?:gatewayPath|members)\.\d+)\b/.exec(message)?.[1];
