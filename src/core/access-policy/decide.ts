import type { Cidr } from "../net/cidr";
import { carriesFlow, type Flow } from "./ports";
import type { AccessRule } from "./rules";
import { type AccessSubject, hostPrefix, type Selector, selectedPart, selectsNode } from "./selectors";

export type AccessMode = "open" | "policy";

/** A flow's destination: a node of the network, or an address routed out through a via_gateway policy. */
export type AccessTarget = { node: AccessSubject } | { address: Cidr };

export interface AccessDecision {
  allowed: boolean;
  /** The rule that decided (its index in the document), or null when the mode's default did. */
  rule: number | null;
}

const sideSelects = (selectors: readonly Selector[], subject: AccessSubject) => {
  const prefix = hostPrefix(subject.address);
  return selectors.some((selector) => selectsNode(selector, subject, prefix));
};

function targetSelected(selectors: readonly Selector[], target: AccessTarget): boolean {
  if ("node" in target) return sideSelects(selectors, target.node);
  // A routed host is named only by "*" or a CIDR holding it (tags and nodes name overlay nodes).
  return selectors.some((selector) => selectedPart(selector, target.address)?.prefix === target.address.prefix);
}

/**
 * One flow, decided by reading every rule: the reference the compiled configs are held to in tests, and
 * what `access-check` and the document's tests answer. A deny beats every allow; the first matching
 * deny (else allow) in document order is the rule reported. `rules` are those in force (rulesInForce).
 */
export function decideFlow(
  mode: AccessMode,
  rules: readonly AccessRule[],
  src: AccessSubject,
  target: AccessTarget,
  flow: Flow,
): AccessDecision {
  if (mode === "open") return { allowed: true, rule: null };
  const matching = rules.filter((rule) => carriesFlow(rule.ports, flow) && sideSelects(rule.src, src) && targetSelected(rule.dst, target));
  const deny = matching.find((rule) => rule.action === "deny");
  if (deny) return { allowed: false, rule: deny.index };
  const allow = matching.find((rule) => rule.action === "allow");
  return allow ? { allowed: true, rule: allow.index } : { allowed: false, rule: null };
}
