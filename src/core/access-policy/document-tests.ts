import type { FieldError } from "../../lib/errors";
import { type AccessSubject, hostPrefix, hostPrefixOrNull, parseSelector, selectsNode } from "./selectors";
import { type AccessMode, decideFlow, type AccessTarget } from "./decide";
import { parseFlow } from "./ports";
import type { AccessRule } from "./rules";

/** A test the access-policy document carries: the PUT that breaks one is refused. */
export interface AccessTestText {
  src: string;
  dst: string;
  port: string;
  expect: "allow" | "deny";
}

/** Nodes a test side names; a destination may also be an address (a routed host, or any overlay address). */
function targetsOf(text: string, nodes: readonly AccessSubject[]): AccessTarget[] | string {
  const address = hostPrefixOrNull(text);
  if (address) {
    const node = nodes.find((candidate) => candidate.address === text);
    return [node ? { node } : { address }];
  }
  const named = sourcesOf(text, nodes);
  return typeof named === "string" ? named : named.map((node) => ({ node }));
}

function sourcesOf(text: string, nodes: readonly AccessSubject[]): AccessSubject[] | string {
  const selector = parseSelector(text);
  if (!selector.ok) return selector.reason;
  const selected = nodes.filter((node) => selectsNode(selector.value, node, hostPrefix(node.address)));
  return selected.length > 0 ? selected : "Selects no node of the network";
}

/**
 * Every test run against the rules in force; each failure is a field error naming the test and, for a
 * wrong answer, the flow and the rule that decided it. A test holds when every node its `src` selects and
 * every destination its `dst` names get `expect` (a selector that names no node fails: a typo would pass).
 */
export function failingTests(
  mode: AccessMode,
  rules: readonly AccessRule[],
  tests: readonly AccessTestText[],
  nodes: readonly AccessSubject[],
): FieldError[] {
  return tests.flatMap((test, i): FieldError[] => {
    const path = `tests.${i}`;
    const flow = parseFlow(test.port);
    if (!flow.ok) return [{ path: `${path}.port`, message: flow.reason }];
    const sources = sourcesOf(test.src, nodes);
    if (typeof sources === "string") return [{ path: `${path}.src`, message: `${JSON.stringify(test.src)}: ${sources}` }];
    const targets = targetsOf(test.dst, nodes);
    if (typeof targets === "string") return [{ path: `${path}.dst`, message: `${JSON.stringify(test.dst)}: ${targets}` }];
    for (const src of sources) {
      for (const target of targets) {
        if ("node" in target && target.node.id === src.id) continue;
        const decision = decideFlow(mode, rules, src, target, flow.value);
        if ((decision.allowed ? "allow" : "deny") === test.expect) continue;
        const to = "node" in target ? target.node.address : target.address.text;
        const why = decision.rule === null ? "no rule allows it" : `rules.${decision.rule} decided`;
        return [
          {
            path,
            message: `Expected ${test.expect} for ${src.address} → ${to} ${test.port}, got ${decision.allowed ? "allow" : "deny"} (${why})`,
          },
        ];
      }
    }
    return [];
  });
}
