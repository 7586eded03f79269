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
  return text
    .replace(/gatewayPath\.(\d+) \(([^)\s]+)\) repeats an earlier hop/g, (_, index: string, id: string) => {
      const first = path.indexOf(id);
      const earlier = first >= 0 && first < Number(index) ? `hop ${first + 1}` : "an earlier hop";
      return `Hop ${hopNumber(index)} (${nameOf(id)}) repeats ${earlier}`;
    })
    .replace(/gatewayPath\.(\d+) \(([^)\s]+)\)/g, (_, index: string, id: string) => `Hop ${hopNumber(index)} (${nameOf(id)})`)
    .replace(/\bgatewayPath\.(\d+)/g, (_, index: string) => `Hop ${hopNumber(index)}`)
    .replace(/^gatewayPath\b/, "The gateway path")
    .replace(/\bgatewayPath\b/g, "the gateway path")
    .replace(ID, (id) => nameOf(id));
}

/** A form's labels by the API's field path ("gatewayPath.0" → "Hop 1"), and the form field that holds it. */
export interface FieldMap {
  [apiPath: string]: { label: string; field: string };
}

/** Where a refusal belongs: its field paths, or a hop its sentence names ("gatewayPath.2 (…) …" → hop 3). */
export function placeOf(apiPath: string, map: FieldMap): { label: string; field: string } | undefined {
  const known = map[apiPath];
  if (known) return known;
  const hop = /^gatewayPath\.(\d+)/.exec(apiPath);
  if (hop?.[1] !== undefined) return { label: `Hop ${hopNumber(hop[1])}`, field: `hop${hopNumber(hop[1])}` };
  return undefined;
}

/** The API path a sentence is about, when the API put it in the sentence rather than in fields[]. */
export const pathInSentence = (message: string) => /\b(gatewayPath\.\d+)\b/.exec(message)?.[1];
