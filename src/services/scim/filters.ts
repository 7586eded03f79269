// SCIM list filters (RFC 7644 §3.4.2.2) as identity providers send them: `userName eq "…"`, `externalId eq
// "…"`, `displayName eq "…"`, joined by `and`. scim2-parse-filter reads the grammar (quoting, escapes, case of
// operators); what it parses into that we cannot answer exactly is refused as invalidFilter, never guessed.
import { and, type SQL } from "drizzle-orm";
import { type Filter, parse } from "scim2-parse-filter";
import { scimRefusal } from "../../lib/errors";

/** attribute (lower-cased, as SCIM compares names) → the value it must equal; `none`: no resource can match. */
export interface EqualityFilter {
  equals: Map<string, string>;
  none: boolean;
}

/** Longer filters than any IdP sends are refused before parsing. */
const MAX_FILTER_LENGTH = 1_000;

export function parseEqualityFilter(filter: string | undefined, attributes: readonly string[]): EqualityFilter {
  const wanted: EqualityFilter = { equals: new Map(), none: false };
  if (filter === undefined || filter.trim() === "") return wanted;
  if (filter.length > MAX_FILTER_LENGTH) throw scimRefusal("invalidFilter", `The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  let tree: Filter;
  try {
    tree = parse(filter);
  } catch (error) {
    throw scimRefusal("invalidFilter", `The filter does not parse: ${(error as Error).message}`);
  }
  collect(tree, attributes, wanted);
  return wanted;
}

function collect(tree: Filter, attributes: readonly string[], into: EqualityFilter): void {
  if (tree.op === "and") {
    for (const part of tree.filters) collect(part, attributes, into);
    return;
  }
  if (tree.op !== "eq" || typeof tree.compValue !== "string") {
    throw scimRefusal("invalidFilter", `Only "eq" on a string, joined by "and", is supported (filter on ${attributes.join(", ")})`);
  }
  const name = tree.attrPath.toLowerCase();
  if (!attributes.includes(name)) throw scimRefusal("invalidFilter", `Cannot filter on ${tree.attrPath}; use ${attributes.join(", ")}`);
  const earlier = into.equals.get(name);
  // `a eq "x" and a eq "y"` matches nothing.
  if (earlier !== undefined && earlier !== tree.compValue) into.none = true;
  into.equals.set(name, tree.compValue);
}

/** The filter as one WHERE condition over `columns` (attribute → its comparison); undefined matches everything. */
export const filterWhere = (filter: EqualityFilter, columns: Record<string, (value: string) => SQL>): SQL | undefined =>
  and(...[...filter.equals].map(([name, value]) => columns[name]!(value)));
