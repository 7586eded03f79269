// The policy document as text: a policy file is honest as JSON (docs/access.md shows the same shape), and
// every refusal of it is placed beside the one field, with its rule or test named in the summary.
import type { FormError } from "../form";
import type { FieldMap } from "../humanize";
import { CsrfField } from "../layout";
import { TextareaField } from "../fields";

/** Where the API's paths go: every rules.* and tests.* refusal is about the document field. */
export const ACCESS_FIELDS: FieldMap = {
  document: { label: "Policy document", field: "document" },
  rules: { label: "Policy document", field: "document" },
  tests: { label: "Policy document", field: "document" },
};

/** The document as the editor shows it: rules and tests, two-space JSON. */
export const documentText = (document: { rules: unknown[]; tests: unknown[] }) =>
  JSON.stringify({ rules: document.rules, tests: document.tests }, null, 2);

export interface EditorProps {
  csrfToken: string;
  networkId: string;
  /** The revision the edit starts from: Apply sends it as If-Match, so a write in between is refused (412). */
  revision: number;
  text: string;
  error?: FormError;
}

/** Preview first: nothing is written until Apply on the preview's page. */
export function PolicyEditor({ csrfToken, networkId, revision, text, error }: EditorProps) {
  return (
    <form method="post" action={`/networks/${networkId}/access/preview`} class="card">
      <CsrfField token={csrfToken} />
      <input type="hidden" name="revision" value={String(revision)} />
      <TextareaField
        id="document"
        label="Policy document"
        error={error}
        help='JSON: { "rules": [{ "action": "allow", "src": ["tag:dev"], "dst": ["tag:web"], "ports": ["tcp:443"] }], "tests": [{ "src": "tag:dev", "dst": "tag:web", "port": "tcp:443", "expect": "allow" }] }. Preview shows what it changes before anything is saved.'
        textarea={{ name: "document", rows: 16, spellcheck: false }}
      >
        {text}
      </TextareaField>
      <button type="submit">Preview changes</button>
    </form>
  );
}

/** "rules.0.src.1" → "Rule 1, src 2"; "tests.3" → "Test 4": the summary names what to fix in the text. */
export function placeInDocument(path: string): string {
  const match = /^(rules|tests)\.(\d+)(?:\.([A-Za-z]+)(?:\.(\d+))?)?/.exec(path);
  if (!match) return path;
  const [, list, index, key, item] = match;
  const place = `${list === "rules" ? "Rule" : "Test"} ${Number(index) + 1}`;
  return key ? `${place}, ${key}${item === undefined ? "" : ` ${Number(item) + 1}`}` : place;
}
