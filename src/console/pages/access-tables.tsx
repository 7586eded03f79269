// The access policy as tables a person reads: its rules, and its tests with their results against the nodes
// as they are now (the API's preview of the document in force, which runs them without applying anything).
import type { Schema } from "../../../client/index.ts";
import { EmptyState } from "../layout";
import type { Names } from "../humanize";
import { when } from "./network-frame";

type Rule = Schema<"AccessRule">;
type Test = Schema<"AccessTest">;

/** A selector with node ids put as names ("node:node_…" reads "node:laptop-1"). */
export const selectorText = (selector: string, names: Names) =>
  selector.startsWith("node:") ? `node:${names.get(selector.slice(5)) ?? selector.slice(5)}` : (names.get(selector) ?? selector);

const list = (selectors: string[], names: Names) => selectors.map((selector) => selectorText(selector, names)).join(", ");

/** One rule in a line: "Rule 2: allow tag:dev → tag:web on tcp:443 (web access)". */
export const ruleSentence = (index: number, rule: Rule, names: Names) =>
  `Rule ${index + 1}: ${rule.action} ${list(rule.src, names)} → ${list(rule.dst, names)} on ${rule.ports.join(", ")}` +
  (rule.description ? ` (${rule.description})` : "");

export function RulesTable({ rules, names }: { rules: Rule[]; names: Names }) {
  if (rules.length === 0) return <EmptyState>No rules yet: in policy mode nothing would be allowed. Write the first below.</EmptyState>;
  return (
    <table>
      <caption class="visually-hidden">Rules, in document order (a deny beats every allow)</caption>
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Action</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Ports</th>
          <th scope="col">Expires</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {rules.map((rule, i) => (
          <tr>
            <th scope="row">{i + 1}</th>
            <td class={rule.action === "deny" ? "status-bad" : "status-ok"}>{rule.action}</td>
            <td>
              <code>{list(rule.src, names)}</code>
            </td>
            <td>
              <code>{list(rule.dst, names)}</code>
            </td>
            <td>
              <code>{rule.ports.join(", ")}</code>
            </td>
            <td>{rule.expiresAt ? when(rule.expiresAt) : "never"}</td>
            <td>{rule.description ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The tests with their results: `failing` maps a test's index to the API's sentence for its failure. */
export function TestsTable({ tests, failing, names }: { tests: Test[]; failing: ReadonlyMap<number, string>; names: Names }) {
  if (tests.length === 0)
    return <EmptyState>No tests yet. Add tests for the flows that must keep working and those that must stop.</EmptyState>;
  return (
    <table>
      <caption class="visually-hidden">Tests and their results against the nodes as they are now</caption>
      <thead>
        <tr>
          <th scope="col">Test</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Flow</th>
          <th scope="col">Expects</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        {tests.map((test, i) => {
          const failure = failing.get(i);
          return (
            <tr>
              <th scope="row">{i + 1}</th>
              <td>
                <code>{selectorText(test.src, names)}</code>
              </td>
              <td>
                <code>{selectorText(test.dst, names)}</code>
              </td>
              <td>
                <code>{test.port}</code>
              </td>
              <td>{test.expect}</td>
              <td>{failure ? <span class="status-bad">fails: {failure}</span> : <span class="status-ok">passes</span>}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** "tests.2" and "tests.2.src" → 2; anything else → undefined. */
export const testIndexOf = (path: string) => {
  const match = /^tests\.(\d+)/.exec(path);
  return match ? Number(match[1]) : undefined;
};
