/**
 * A refused form is answered by re-rendering its page at the URL it was POSTed to (…/pools,
 * …/nodes/:id/endpoint, /admin/gateways). Reloading that page, or coming back to it, asks for the same URL
 * with GET, which no page answers: instead of a bare "Not found", such a GET is sent to the page the form
 * was on. Only console paths with plain id segments match, so the answer never points off this origin.
 */
const SEGMENT = "[A-Za-z0-9_-]+";
const FORM_PAGES: [RegExp, (match: RegExpExecArray) => string][] = [
  [new RegExp(`^/networks/(${SEGMENT})/pools(/.*)?$`), (match) => `/networks/${match[1]}/policies`],
  // The relay form lives on its node's page.
  [new RegExp(`^/networks/(${SEGMENT})/nodes/(${SEGMENT})/relay$`), (match) => `/networks/${match[1]}/nodes/${match[2]}`],
  [new RegExp(`^/networks/(${SEGMENT})/(nodes|policies|dns|access)/.+$`), (match) => `/networks/${match[1]}/${match[2]}`],
  [new RegExp(`^/groups/(${SEGMENT})/.+$`), (match) => `/groups/${match[1]}`],
  [/^\/admin\/(gateways|regions)(\/.*)?$/, () => "/admin/inventory"],
  [/^\/admin\/(agents\/.+|settings)$/, (match) => (match[1] === "settings" ? "/admin" : "/admin/agents")],
  [/^\/notifications\/.+$/, () => "/notifications"],
  [/^\/(devices|enrolment-keys)\/.+$/, () => "/devices"],
];

/** The page a form that POSTs to `path` lives on, or undefined for a path that is no form's. */
export function formPageOf(path: string): string | undefined {
  for (const [pattern, page] of FORM_PAGES) {
    const match = pattern.exec(path);
    if (match) return page(match);
  }
  return undefined;
}
