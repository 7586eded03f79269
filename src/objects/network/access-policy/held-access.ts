import type { NetworkState } from "../state";
import { accessSubjects } from "./access-state";
import { type CompiledAccess, compileAccess } from "../../../core/access-policy/compile";
import { type AccessRule, parseRules, rulesInForce } from "../../../core/access-policy/rules";

/** The stored document's rules, parsed (they were checked when written, so a failure here is a broken invariant). */
export function storedRules(state: Pick<NetworkState, "access">): AccessRule[] {
  const parsed = parseRules(state.access.rules);
  if (!parsed.ok)
    throw new Error(`Stored access policy revision ${state.access.revision} does not parse: ${JSON.stringify(parsed.fields)}`);
  return parsed.rules;
}

/** A policy-mode network's access at `now` (ms): the rules in force over its nodes. */
export function compileHeldAccess(state: NetworkState, now: number): CompiledAccess {
  return compileAccess("policy", accessSubjects(state.nodes, state.owners), rulesInForce(storedRules(state), now));
}
